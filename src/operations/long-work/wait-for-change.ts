// The long-poll behind get_operation and get_connector: read, and until `changed(first, now)` or the
// wait ends, sleep on the resource's watch (no busy loop, no database connection held) and read again.
// The wake-up is registered before each re-read, so a change between the read and the sleep is not missed;
// a slow re-read every OPERATION_WAIT_RECHECK_MS covers a lost notification.
import type { Deps } from '../../deps.ts';

export async function waitForChange<T>(
  deps: Deps,
  request: { id: string; waitSeconds: number; signal?: AbortSignal },
  read: () => Promise<T>,
  changed: (first: T, now: T) => boolean,
): Promise<T> {
  const deadline = Date.now() + request.waitSeconds * 1000;
  if (request.waitSeconds > 0) await deps.resourceWatch.ready();
  const first = await read();
  let current = first;
  while (!changed(first, current)) {
    const left = deadline - Date.now();
    if (left <= 0 || request.signal?.aborted) break;
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    const woken = deps.resourceWatch.wait(request.id, Math.min(left, deps.config.operationWaitRecheckMs), stop.signal);
    try {
      current = await read();
      if (changed(first, current)) break;
      await woken;
      current = await read();
    } finally {
      stop.abort();
      request.signal?.removeEventListener('abort', onAbort);
    }
  }
  return current;
}
