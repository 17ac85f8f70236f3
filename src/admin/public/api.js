// The panel's only way to the service: the generated typed SDK (src/generated/sdk.ts, bundled into the panel's
// script), so the panel has no list of paths of its own and `npm run typecheck` checks every call's arguments
// against the contract. The bearer JWT goes in the Authorization header; a 401 first tries the panel session's
// refresh cookie (session.js) once, then ends the session. Errors arrive as RFC 9457 problem+json and become ApiProblem.
import { ApiProblemError, createClient } from '../../generated/sdk.ts';

export class ApiProblem extends Error {
  /**
   * @param {number} status
   * @param {{ code?: string, detail?: string, title?: string, request_id?: string, errors?: Array<{ field?: string, pointer?: string, message: string }> } | null} body
   */
  constructor(status, body) {
    super(body?.detail || body?.title || `The request failed (HTTP ${status}).`);
    this.name = 'ApiProblem';
    this.status = status;
    this.code = body?.code ?? 'unknown';
    this.requestId = body?.request_id;
    this.errors = body?.errors ?? [];
  }
}

/** @param {unknown} error @param {AbortSignal | undefined} signal */
function toProblem(error, signal) {
  if (error instanceof ApiProblemError) {
    const body = typeof error.problem === 'object' && error.problem !== null ? error.problem : null;
    return new ApiProblem(error.status, /** @type {any} */ (body));
  }
  // A request the page itself gave up on (it was left) is not a network problem.
  if (signal?.aborted) return error;
  return new ApiProblem(0, {
    code: 'network',
    detail: 'The service could not be reached. Check your connection and try again.',
  });
}

/**
 * @param {{
 *   getToken: () => string | null,
 *   refresh?: () => Promise<string | null>,
 *   onUnauthorized: (problem: ApiProblem) => void,
 *   bearer?: string,
 *   signal?: AbortSignal,
 *   fetch?: typeof fetch,
 * }} options
 */
export function createApi(options) {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));

  /** @param {Request} request */
  async function send(request) {
    const sent = request.headers.has('Authorization');
    // The body read once, as bytes: the request can be sent again (after a refresh) and goes out as a plain body,
    // not a stream.
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    /** @param {Headers} headers */
    const attempt = (headers) =>
      doFetch(request.url, {
        method: request.method,
        headers,
        body,
        credentials: 'omit',
        cache: 'no-store',
        redirect: request.redirect,
        signal: options.signal,
      });
    const res = await attempt(request.headers);
    if (res.status !== 401 || !sent || options.bearer) return res;
    // The short JWT expired or was revoked: the session's cookie may mint a new one.
    const token = options.refresh ? await options.refresh() : null;
    if (token) {
      const headers = new Headers(request.headers);
      headers.set('Authorization', `Bearer ${token}`);
      const again = await attempt(headers);
      if (again.status !== 401) return again;
    }
    const problem = await res
      .clone()
      .json()
      .catch(() => null);
    options.onUnauthorized(new ApiProblem(401, problem));
    return res;
  }

  const client = createClient({
    baseUrl: location.origin,
    credential: () => options.bearer ?? options.getToken() ?? undefined,
    fetch: send,
    maxRetries: 0,
  });
  // Every operation of the SDK, with its errors as ApiProblem; the SDK's own names and argument types.
  /** @type {Api} */
  const api = /** @type {any} */ ({
    withSignal: (/** @type {AbortSignal} */ signal) => createApi({ ...options, signal }),
    withBearer: (/** @type {string} */ bearer) => createApi({ ...options, bearer }),
  });
  for (const [name, call] of Object.entries(client)) {
    if (name === 'raw' || typeof call !== 'function') continue;
    /** @type {any} */ (api)[name] = (/** @type {any} */ args) =>
      call(args).catch((/** @type {unknown} */ error) => {
        throw toProblem(error, options.signal);
      });
  }
  return api;
}

/**
 * The SDK's operations, plus the same API with another abort signal (a long poll the page may stop) or with
 * another bearer (a login that is not the session's, when accepting an invitation).
 * @typedef {Omit<ReturnType<typeof createClient>, 'raw'> & { withSignal(signal: AbortSignal): Api, withBearer(bearer: string): Api }} Api
 */

/**
 * Every page of a cursor list.
 * @template T
 * @param {(cursor: string | null) => Promise<{ data: T[], has_more: boolean, next_cursor?: string | null }>} fetchPage
 * @returns {Promise<T[]>}
 */
export async function allPages(fetchPage) {
  const items = [];
  let cursor = null;
  for (let i = 0; i < 50; i += 1) {
    const page = await fetchPage(cursor);
    items.push(...page.data);
    if (!page.has_more || !page.next_cursor) break;
    cursor = page.next_cursor;
  }
  return items;
}
