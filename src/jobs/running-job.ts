// One job in flight in this process: its abort signal, and the deadline that fires shortly
// before its lease ends (pg-boss would then consider the job expired and hand it to another
// worker). Each renewal of the lease moves the deadline.
import type PgBoss from 'pg-boss';

export interface RunningJob {
  id: string;
  kind: string;
  /** pg-boss's retry count when this run began: with the id it names the run (a retry keeps the id). */
  retryCount: number;
  signal: AbortSignal;
  /** True once the lease ran out or was lost: the outcome must no longer be written (another run may own the job). */
  readonly expired: boolean;
  /** Resolves or rejects with the handler, or rejects as soon as the signal aborts. */
  race(work: Promise<void>): Promise<void>;
  abort(reason: Error): void;
  /** The lease was renewed: it ends `remainingMs` from now (as the database counted, so never later than that). */
  renewed(remainingMs: number): void;
  /** The job is no longer this run's (expired, failed or cancelled by someone else): stop without writing. */
  lost(reason: string): void;
  dispose(): void;
}

// Leave the lease a margin so this run stops writing before another worker may start.
const marginMs = (leaseMs: number): number => Math.min(5_000, leaseMs * 0.1);

export function runningJob(job: PgBoss.JobWithMetadata): RunningJob {
  const controller = new AbortController();
  let expired = false;
  // Set once the handler has returned or thrown: a lease lost after that (the renewal racing this worker's own
  // completion, or a lapse while the outcome is written) withholds the outcome, but aborts nothing.
  let settled = false;
  const leaseMs = Number(job.expireInSeconds) * 1000;
  const expire = (reason: string): void => {
    expired = true;
    if (!settled) controller.abort(new Error(reason));
  };
  const arm = (ms: number): NodeJS.Timeout =>
    setTimeout(() => expire(`job ran past its lease of ${job.expireInSeconds} s`), ms - marginMs(leaseMs));
  let deadline = arm(leaseMs);
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  aborted.catch(() => {});
  return {
    id: job.id,
    kind: job.name,
    retryCount: job.retryCount,
    signal: controller.signal,
    get expired() {
      return expired;
    },
    race: (work) =>
      Promise.race([
        work.finally(() => {
          settled = true;
        }),
        aborted,
      ]),
    abort: (reason) => controller.abort(reason),
    renewed(remainingMs) {
      if (expired || controller.signal.aborted) return;
      clearTimeout(deadline);
      deadline = arm(remainingMs);
    },
    lost: (reason) => {
      if (!expired && !controller.signal.aborted) expire(reason);
    },
    dispose: () => clearTimeout(deadline),
  };
}
