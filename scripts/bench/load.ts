// One autocannon run against one target, through its programmatic API, reduced to what the report
// needs. Any non-2xx answer (for a spec with expectedStatus, any other status), error or timeout fails the
// run: a ratio of failures means nothing.
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Replaces `[<id>]` in the request (headers included) with a fresh id on every request. */
  idReplacement?: boolean;
  /** The status every answer must have, for a target that is not a 2xx (a redirect); default any 2xx. */
  expectedStatus?: number;
  /** Paths taken in turn, one per request, instead of `path` every time (requests spread over many rows). */
  paths?: string[];
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

/** autocannon's per-request hook: the next of `paths` on every request. */
function rotating(paths: string[]) {
  let next = 0;
  return [{ setupRequest: (request: Record<string, unknown>) => ({ ...request, path: paths[next++ % paths.length] }) }];
}

/** Whether every answer had the status the spec expects (any 2xx by default). */
function allAsExpected(result: AutocannonResult, spec: RequestSpec): boolean {
  if (spec.expectedStatus === undefined) return result.non2xx === 0;
  return Object.keys(result.statusCodeStats).every((code) => Number(code) === spec.expectedStatus);
}

export async function load(baseUrl: string, spec: RequestSpec, options: LoadOptions): Promise<LoadResult> {
  const result = await runAutocannon({
    ...(spec.paths && { requests: rotating(spec.paths) }),
    url: baseUrl + spec.path,
    method: spec.method,
    headers: spec.headers,
    body: spec.body,
    idReplacement: spec.idReplacement ?? false,
    connections: options.connections,
    pipelining: 1,
    duration: options.durationSeconds,
  });
  if (!allAsExpected(result, spec) || result.errors > 0 || result.timeouts > 0) {
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
