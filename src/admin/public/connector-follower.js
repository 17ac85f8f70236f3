// Follows connectors waiting for consent: get_connector with wait_seconds, again and again, so the
// page learns the moment the human allows (or denies) access in the other tab. Every request ends
// when the page is left; network and service errors are retried after a pause.
import { ApiProblem } from './api.js';
import { linkUsable } from './connector-words.js';

const WAIT_SECONDS = 25;
const RETRY_MS = 5000;
// Each long poll holds one of the six connections a browser opens to an origin: follow only the newest few.
export const MAX_FOLLOWED = 3;

/**
 * @param {{
 *   api: import('./api.js').Api,
 *   signal: AbortSignal,
 *   alive: () => boolean,
 *   current: (id: string) => any,
 *   onChange: (before: any, now: any) => void,
 *   onLinkExpired: (connector: any) => void,
 * }} options
 */
export function connectorFollower(options) {
  /** @type {Map<string, AbortController>} oldest first */
  const followed = new Map();

  /** Follows a pending connector until it changes; past the limit, the oldest one is let go. @param {string} id */
  function follow(id) {
    if (followed.has(id) || options.signal.aborted) return;
    const stop = new AbortController();
    const onLeave = () => stop.abort();
    options.signal.addEventListener('abort', onLeave, { once: true });
    followed.set(id, stop);
    if (followed.size > MAX_FOLLOWED) {
      const [oldest, controller] = /** @type {[string, AbortController]} */ (followed.entries().next().value);
      followed.delete(oldest);
      controller.abort();
    }
    void watch(id, stop.signal).finally(() => {
      if (followed.get(id) === stop) followed.delete(id);
      options.signal.removeEventListener('abort', onLeave);
    });
  }

  /** @param {string} id @param {AbortSignal} signal */
  async function watch(id, signal) {
    for (let round = 0; ; round += 1) {
      const before = options.current(id);
      if (!before || !linkUsable(before)) {
        if (round > 0 && before?.status === 'pending_consent' && options.alive()) options.onLinkExpired(before);
        return;
      }
      let now;
      try {
        now = await options.api.withSignal(signal).get_connector({ connector_id: id, wait_seconds: WAIT_SECONDS });
      } catch (error) {
        if (signal.aborted || !options.alive() || !retryable(error)) return;
        await pause(RETRY_MS, signal);
        continue;
      }
      if (signal.aborted || !options.alive() || !now) return;
      const latest = options.current(id) ?? before;
      if (now.status !== latest.status || now.updated_at !== latest.updated_at) options.onChange(latest, now);
    }
  }

  return { follow };
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
