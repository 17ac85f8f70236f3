// Follows one resource with the API's `wait_seconds` long polls: ask, show what came back, ask again, until
// the page (or the view) is left or the resource settles. Network and service errors are retried after a pause;
// anything else (a 404, a 401 that already ended the session) stops following.
import { ApiProblem } from './api.js';

const RETRY_MS = 5000;
// A wait answered at once (the caller had not seen this state yet) is followed by a short pause, never a busy loop.
const QUICK_MS = 1000;

/**
 * @template T
 * @param {{
 *   read: (signal: AbortSignal) => Promise<T>,
 *   onValue: (value: T) => void,
 *   alive: () => boolean,
 *   signal: AbortSignal,
 *   settled?: (value: T) => boolean,
 * }} options
 */
export async function follow(options) {
  while (options.alive() && !options.signal.aborted) {
    let value;
    const asked = Date.now();
    try {
      value = await options.read(options.signal);
    } catch (error) {
      if (options.signal.aborted || !options.alive() || !retryable(error)) return;
      await pause(RETRY_MS, options.signal);
      continue;
    }
    if (options.signal.aborted || !options.alive()) return;
    options.onValue(value);
    if (options.settled?.(value)) return;
    if (Date.now() - asked < QUICK_MS) await pause(QUICK_MS, options.signal);
  }
}

/** Worth another try: the network, the rate limit or the service itself. @param {unknown} error */
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

/** A same-page link: plain clicks stay in the page, modified ones keep the browser's behaviour. @param {() => void} go */
export function inPage(go) {
  /** @param {MouseEvent} event */
  return (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    go();
  };
}
