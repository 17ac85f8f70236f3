// One abort signal per call that fires on the call's total time limit or on the caller's own
// signal, whichever comes first, and is released once the body is done.
import { OutboundError } from './outbound-error.ts';

export interface Deadline {
  signal: AbortSignal;
  /** Stops the timer and forgets the caller's signal; safe to call more than once. */
  settle(): void;
}

/** `currentUrl` names the hop in flight when time runs out. */
export function startDeadline(
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  currentUrl: () => string,
): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    const details = { url: currentUrl(), limitMs: timeoutMs };
    controller.abort(new OutboundError('timeout', `no complete answer within ${timeoutMs} ms`, details));
  }, timeoutMs);
  // A response nobody reads must not keep the process alive; the abort still frees its connection.
  timer.unref();
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    settle() {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}
