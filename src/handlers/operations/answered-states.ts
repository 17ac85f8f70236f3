// What each caller was last answered about each watched resource (a fingerprint of what it saw), so that a
// long-poll compares the resource with what the caller knows rather than with the server's first read of
// it: a change that came between two calls is then answered at once instead of at the end of the wait.
// Kept in this process only and bounded; a caller it does not remember (a first call, an answer another
// instance gave, an entry pushed out) costs at most one answer that the caller did not need.

import type { AnsweredStates } from '../../http/resource-watch.ts';

/** Enough for every client following a few runs at once; an entry is a key and a short fingerprint. */
const REMEMBERED = 10_000;

export function createAnsweredStates(limit = REMEMBERED): AnsweredStates {
  // A Map iterates in insertion order: re-inserting on each answer keeps the least recent entry first.
  const states = new Map<string, string>();
  const key = (caller: string, id: string) => `${caller}\u0000${id}`;
  return {
    get: (caller, id) => states.get(key(caller, id)),
    set(caller, id, fingerprint) {
      const k = key(caller, id);
      states.delete(k);
      states.set(k, fingerprint);
      if (states.size > limit) states.delete(states.keys().next().value as string);
    },
  };
}
