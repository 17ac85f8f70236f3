// Turns whatever a fetch threw (a socket or DNS error, an abort reason, a stream or decoding error,
// or an OutboundError of our own connector or transport) into an OutboundError with a stable reason.
import { OutboundError } from './outbound-error.ts';

const dnsCodes = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA']);
const connectCodes = new Set(['ETIMEDOUT']);

export interface FailureContext {
  /** The call's own abort signal. */
  signal: AbortSignal;
  url: string;
  connectTimeoutMs: number;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The innermost OutboundError or coded error along the `cause` chain (AggregateErrors included). */
function rootCause(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5; depth++) {
    if (current instanceof OutboundError || codeOf(current)) return current;
    if (current instanceof AggregateError && current.errors.length) {
      const found = current.errors.map(rootCause).find((e) => e instanceof OutboundError);
      return found ?? rootCause(current.errors[0]);
    }
    const next = (current as { cause?: unknown } | null)?.cause;
    if (next === undefined) return current;
    current = next;
  }
  return current;
}

/**
 * When the call's signal fired, its reason is the answer: our total timeout, or the caller's own
 * abort, which is passed through untouched.
 */
export function classifyFailure(error: unknown, context: FailureContext): unknown {
  const { signal, url } = context;
  if (signal.aborted) return signal.reason;
  const root = rootCause(error);
  if (root instanceof OutboundError) {
    return root.details.url ? root : new OutboundError(root.reason, root.message, { ...root.details, url }, root.cause);
  }
  const code = codeOf(root);
  if (code && connectCodes.has(code)) {
    return new OutboundError(
      'timeout',
      `no connection within ${context.connectTimeoutMs} ms`,
      { url, limitMs: context.connectTimeoutMs },
      root,
    );
  }
  if (code && dnsCodes.has(code))
    return new OutboundError('dns_failure', `the host name could not be resolved (${code})`, { url }, root);
  const what = code ?? (root instanceof Error ? root.message : 'unknown error');
  return new OutboundError('connection_failed', `the request failed (${what})`, { url }, root);
}
