// Wakes long-polls (get_operation, get_agent_run, get_connector, ...) waiting on a resource when it
// changes, without a busy loop and without holding a database connection for the wait. A change made in
// this process wakes local waiters directly; on PostgreSQL it is also NOTIFYed, so a change made by a
// worker process or another instance wakes waiters here. The embedded database's socket does not carry
// NOTIFY, but it admits one process, so every change there is local. Waiters also re-read on a slow
// timer, so a notification lost to a dropped connection delays an answer by at most that interval.
// It also remembers what each caller was last answered (see wait-for-change.ts), and at shutdown ends
// the waits so that open long-polls answer at once instead of holding the process up.
import type { Sql } from 'postgres';
import type { Logger } from 'pino';
import type { ResourceWatch } from '../../http/resource-watch.ts';
import { createAnsweredStates } from './answered-states.ts';

export const operationChannel = 'operation_changed';

export interface OperationWatchOptions {
  sql: Sql;
  /** `pglite`: local wake-ups only (one process, no NOTIFY through the socket). */
  kind: 'postgres' | 'pglite';
  log: Logger;
}

export function createOperationWatch(options: OperationWatchOptions): ResourceWatch {
  const { sql, kind, log } = options;
  const waiters = new Map<string, Set<() => void>>();
  let listening: Promise<{ unlisten(): Promise<void> } | undefined> | undefined;
  let ended = false;

  const wakeAll = () => {
    for (const id of [...waiters.keys()]) wakeLocal(id);
  };
  const wakeLocal = (id: string) => {
    const set = waiters.get(id);
    if (!set) return;
    waiters.delete(id);
    for (const wake of set) wake();
  };

  // LISTEN only once someone waits: a worker process that never serves get_operation holds no listener.
  const listen = () => {
    if (kind !== 'postgres') return;
    listening ??= sql
      .listen(operationChannel, (id) => wakeLocal(id))
      .catch((error: unknown) => {
        log.warn({ err: error }, 'operation watch: LISTEN failed; waiters fall back to re-reading');
        listening = undefined;
        return undefined;
      });
  };

  return {
    async ready() {
      listen();
      await listening;
    },
    wait(id, ms, signal) {
      listen();
      return new Promise<void>((resolve) => {
        let set = waiters.get(id);
        if (!set) waiters.set(id, (set = new Set()));
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          const current = waiters.get(id);
          current?.delete(done);
          if (current?.size === 0) waiters.delete(id);
          resolve();
        };
        const timer = setTimeout(done, Math.max(0, ms));
        signal?.addEventListener('abort', done, { once: true });
        set.add(done);
        if (signal?.aborted) done();
      });
    },
    changed(id) {
      wakeLocal(id);
      if (kind === 'postgres') {
        sql`select pg_notify(${operationChannel}, ${id})`.catch((error: unknown) =>
          log.warn({ err: error, operation_id: id }, 'operation watch: NOTIFY failed'),
        );
      }
    },
    answered: createAnsweredStates(),
    get ended() {
      return ended;
    },
    end() {
      ended = true;
      wakeAll();
    },
    async close() {
      ended = true;
      wakeAll();
      const listener = await listening;
      listening = undefined;
      await listener?.unlisten().catch(() => {});
    },
  };
}
