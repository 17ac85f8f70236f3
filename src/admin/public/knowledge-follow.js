// Follows a long-running operation (an ingest, a refresh) with get_operation's long poll until it ends, telling
// the page each time its status or progress changes. The requests end when the page is left (the api is bound to
// its signal); the network, the rate limit and the service's own errors are retried after a pause.
import { ApiProblem } from './api.js';

const WAIT_SECONDS = 20;
const RETRY_MS = 3000;
export const FINISHED = ['succeeded', 'failed', 'cancelled'];

/**
 * @param {{ api: import('./api.js').Api, signal: AbortSignal }} ctx
 * @param {any} operation as the API answered it (202)
 * @param {(operation: any) => void} onChange
 * @returns {Promise<any>} the operation, finished
 */
export async function followOperation(ctx, operation, onChange) {
  let current = operation;
  while (!FINISHED.includes(current.status)) {
    try {
      current = await ctx.api.get_operation({ operation_id: current.id, wait_seconds: WAIT_SECONDS });
    } catch (error) {
      if (ctx.signal.aborted || !retryable(error)) throw error;
      await pause(RETRY_MS, ctx.signal);
      continue;
    }
    onChange(current);
  }
  return current;
}

/** @param {unknown} error */
function retryable(error) {
  return error instanceof ApiProblem && (error.status === 0 || error.status === 429 || error.status >= 500);
}

/** @param {number} ms @param {AbortSignal} signal */
function pause(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve(undefined);
    }
  });
}
