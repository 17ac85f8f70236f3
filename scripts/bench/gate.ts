// A gate a bench job waits at before each step, opened by the bench one step at a time; it lives in
// this process, so the job must run here too (the worker of the bench's own services).

export interface Gate {
  /** Resolves once the gate has been opened for this pass (now, if an opening is already waiting). */
  pass(): Promise<void>;
  /** Lets one pass through. */
  open(): void;
  /** Lets every pass through from now on, so a job left mid-way can finish at shutdown. */
  openAll(): void;
}

export function createGate(): Gate {
  let permits = 0;
  let blocked: (() => void) | undefined;
  let wide = false;
  return {
    pass() {
      if (wide) return Promise.resolve();
      if (permits > 0) {
        permits -= 1;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => (blocked = resolve));
    },
    open() {
      if (blocked) {
        const wake = blocked;
        blocked = undefined;
        wake();
      } else permits += 1;
    },
    openAll() {
      wide = true;
      blocked?.();
      blocked = undefined;
    },
  };
}
