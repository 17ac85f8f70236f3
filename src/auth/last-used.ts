// Batches `api_keys.last_used_at` updates: requests only touch memory, and one UPDATE every
// flush interval (and on close) writes the latest use of every key seen since the last flush.
import type { Sql } from 'postgres';
import type { Logger } from 'pino';
import { recordKeysLastUsed } from './credentials-data.ts';

export interface LastUsedRecorder {
  touch(keyId: string, at: Date): void;
  /** Writes what is pending now; resolves when the UPDATE has finished. */
  flush(): Promise<void>;
  /** Stops the timer and flushes. */
  close(): Promise<void>;
}

export interface LastUsedOptions {
  sql: Sql;
  /** Default 5000 ms. */
  flushIntervalMs?: number;
  log?: Logger;
}

export function createLastUsedRecorder(options: LastUsedOptions): LastUsedRecorder {
  const { sql, log } = options;
  let pending = new Map<string, number>();
  let inFlight: Promise<void> = Promise.resolve();
  let closed = false;

  const write = (batch: Map<string, number>): Promise<void> =>
    recordKeysLastUsed(sql, new Map([...batch].map(([id, time]) => [id, new Date(time)])));

  function flush(): Promise<void> {
    if (pending.size === 0) return inFlight;
    const batch = pending;
    pending = new Map();
    inFlight = inFlight
      .then(() => write(batch))
      .catch((error: unknown) => {
        log?.warn({ err: error }, 'last_used_at flush failed; keeping the batch for the next one');
        for (const [keyId, time] of batch) if ((pending.get(keyId) ?? -Infinity) < time) pending.set(keyId, time);
      });
    return inFlight;
  }

  const timer = setInterval(() => void flush(), options.flushIntervalMs ?? 5000);
  timer.unref();

  return {
    touch(keyId, at) {
      if (closed) return;
      const time = at.getTime();
      if ((pending.get(keyId) ?? -Infinity) < time) pending.set(keyId, time);
    },
    flush,
    async close() {
      closed = true;
      clearInterval(timer);
      await flush();
    },
  };
}
