// One autocannon run against one target, through its programmatic API, reduced to what the report
// needs. Any non-2xx answer, error or timeout fails the run: a ratio of failures means nothing.
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Replaces `[<id>]` in the request (headers included) with a fresh id on every request. */
  idReplacement?: boolean;
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
}

interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
  requests: { total: number };
}

/** autocannon's programmatic API as this file calls it: the package ships no types, so its import is untyped. */
const runAutocannon: (options: Record<string, unknown>) => PromiseLike<AutocannonResult> = autocannon;

export async function load(baseUrl: string, spec: RequestSpec, options: LoadOptions): Promise<LoadResult> {
  const result = await runAutocannon({
    url: baseUrl + spec.path,
    method: spec.method,
    headers: spec.headers,
    body: spec.body,
    idReplacement: spec.idReplacement ?? false,
    connections: options.connections,
    pipelining: 1,
    duration: options.durationSeconds,
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    const codes = Object.entries(result.statusCodeStats)
      .map(([code, s]) => `${code}×${s.count}`)
      .join(', ');
    throw new Error(
      `${spec.method} ${spec.path}: ${result.non2xx} non-2xx (${codes}), ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  const total = result.requests.total;
  return { requests: total, seconds: result.duration, requestsPerSecond: total / result.duration };
}
