// The long-poll behind every get_* with `wait_seconds`: read, and until there is something to answer or the
// wait ends, sleep on the resource's watch (no busy loop, no database connection held) and read again.
//
// When to answer is judged against what THIS caller last saw, not against the server's first read: a client
// that was told "running" and calls again after the run began waiting for a person must hear so at once, even
// though nothing changes after its call. So a wait answers at once when the resource is settled (nothing will
// change by itself), when it differs from what the caller was last answered, or, for a caller not remembered,
// when it is in a state the caller must be told about (a run's required action); otherwise at the next change.
//
// Before each sleep the wake-up is registered and the resource read again, so a change committed before that
// read is in it and one committed after it wakes the sleep. A slow re-read every OPERATION_WAIT_RECHECK_MS
// covers a lost notification; at shutdown the watch ends the waits and each answers with what it read.
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';

export interface Watched<T> {
  /** What the caller sees change: two reads with the same fingerprint are the same answer to it. */
  fingerprint(row: T): string;
  /** Nothing more will happen without the caller (finished, or not in a state that moves by itself). */
  settled(row: T): boolean;
  /** A state the caller must be told about once: answered at once unless it was already answered it. */
  notice?(row: T): boolean;
}

/** One caller, as the watch remembers what it was answered: a person, a key, or the operator. */
const callerOf = (actor: Actor) => `${actor.workspaceId}:${actor.kind}:${actor.keyId ?? actor.userId ?? ''}`;

export async function waitForChange<T>(
  deps: Deps,
  actor: Actor,
  request: { id: string; waitSeconds: number; signal?: AbortSignal },
  read: () => Promise<T>,
  watched: Watched<T>,
): Promise<T> {
  const watch = deps.resourceWatch;
  const caller = callerOf(actor);
  const seen = watch.answered.get(caller, request.id);
  const deadline = Date.now() + request.waitSeconds * 1000;
  if (request.waitSeconds > 0) await watch.ready();
  let current = await read();
  const first = watched.fingerprint(current);
  const answerNow = (row: T) => {
    const fingerprint = watched.fingerprint(row);
    return (
      watched.settled(row) ||
      fingerprint !== first ||
      (seen === undefined ? watched.notice?.(row) === true : fingerprint !== seen)
    );
  };
  while (!answerNow(current)) {
    const left = deadline - Date.now();
    if (left <= 0 || watch.ended || request.signal?.aborted) break;
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    const woken = watch.wait(request.id, Math.min(left, deps.config.operationWaitRecheckMs), stop.signal);
    try {
      // The read that decides comes after the wake-up is registered: a change since the read above is in it.
      current = await read();
      if (answerNow(current)) break;
      await woken;
      current = await read();
    } finally {
      stop.abort();
      request.signal?.removeEventListener('abort', onAbort);
    }
  }
  if (!request.signal?.aborted) watch.answered.set(caller, request.id, watched.fingerprint(current));
  return current;
}
