// One job in flight in this process: its abort signal, and the deadline that fires shortly
// before pg-boss would consider the job expired and hand it to another worker.
import type PgBoss from 'pg-boss';

export interface RunningJob {
  id: string;
  kind: string;
  signal: AbortSignal;
  /** True once the deadline passed: the outcome must no longer be written (another run may own the job). */
  readonly expired: boolean;
  /** Resolves or rejects with the handler, or rejects as soon as the signal aborts. */
  race(work: Promise<void>): Promise<void>;
  abort(reason: Error): void;
  dispose(): void;
}

// Leave pg-boss's expiry a margin so this run stops writing before another worker may start.
const marginMs = (expireMs: number): number => Math.min(5_000, expireMs * 0.1);

export function runningJob(job: PgBoss.JobWithMetadata): RunningJob {
  const controller = new AbortController();
  let expired = false;
  const expireMs = Number(job.expireInSeconds) * 1000;
  const deadline = setTimeout(() => {
    expired = true;
    controller.abort(new Error(`job ran past its expiry of ${job.expireInSeconds} s`));
  }, expireMs - marginMs(expireMs));
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  aborted.catch(() => {});
  return {
    id: job.id,
    kind: job.name,
    signal: controller.signal,
    get expired() {
      return expired;
    },
    race: (work) => Promise.race([work, aborted]),
    abort: (reason) => controller.abort(reason),
    dispose: () => clearTimeout(deadline),
  };
}
