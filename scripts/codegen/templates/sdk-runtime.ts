// Runtime of the generated SDK: an openapi-fetch client with bearer credential, retry on 429/503
// honouring Retry-After, typed problem errors, flat-argument calls shared with the MCP tools, text bodies
// (CSV, HTML) read as text, declared redirects returned rather than followed, and `explode: false` query
// arrays sent comma-joined.
import createFetchClient, { createQuerySerializer, serializeArrayParam, type Client } from 'openapi-fetch';

export interface ArgBinding {
  name: string;
  in: 'path' | 'query' | 'header' | 'body';
  key: string;
  /** A query array sent as one comma-joined value (`style: form, explode: false`), not as the key repeated. */
  explode?: false;
}

export interface OperationBinding {
  operationId: string;
  method: string;
  path: string;
  body: 'none' | 'merged' | 'whole';
  contentType?: string;
  args: readonly ArgBinding[];
  /** Read the success body as text (CSV, HTML) instead of JSON. */
  parseAs?: 'text';
  /** The operation declares a 3xx: return it as a Redirect instead of following it. */
  redirect?: 'manual';
}

/** What an operation that declares a 3xx returns when the API redirects: the caller decides whether to follow. */
export interface Redirect {
  redirect: true;
  status: number;
  location: string | null;
}

export interface ClientOptions {
  baseUrl: string;
  /** A JWT or API key, sent as `Authorization: Bearer <credential>`; a function is asked on every request. */
  credential?: string | (() => string | undefined);
  /** Injectable fetch, e.g. `(req) => app.fetch(req)` to call an in-process app. */
  fetch?: (input: Request) => Promise<Response>;
  /** Retries after 429 or 503 (default 2). */
  maxRetries?: number;
  /** A Retry-After longer than this (default 30 s) is not waited for: the error is returned. */
  maxRetryDelayMs?: number;
  headers?: Record<string, string>;
}

/** A non-2xx answer from the API; `problem` is the RFC 9457 body when there is one. */
export class ApiProblemError<P = unknown> extends Error {
  readonly status: number;
  readonly problem: P;
  readonly code?: string;
  readonly requestId?: string;

  constructor(status: number, problem: P, requestId?: string) {
    const body = (typeof problem === 'object' && problem !== null ? problem : {}) as {
      detail?: string;
      title?: string;
      code?: string;
    };
    super(
      `${status} ${body.title ?? 'Error'}: ${body.detail ?? (typeof problem === 'string' ? problem : 'request failed')}`,
    );
    this.name = 'ApiProblemError';
    this.status = status;
    this.problem = problem;
    this.code = body.code;
    this.requestId = requestId;
  }
}

export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function retryingFetch(
  inner: (input: Request) => Promise<Response>,
  maxRetries: number,
  maxDelayMs: number,
): (input: Request) => Promise<Response> {
  return async (input) => {
    for (let attempt = 0; ; attempt++) {
      const request = attempt < maxRetries ? input.clone() : input;
      const response = await inner(request);
      if ((response.status !== 429 && response.status !== 503) || attempt >= maxRetries) return response;
      const delay = retryAfterMs(response.headers.get('retry-after')) ?? 250 * 2 ** attempt;
      if (delay > maxDelayMs) return response;
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  };
}

interface SplitArgs {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, string>;
  body: unknown;
}

export function splitArgs(binding: OperationBinding, args: Record<string, unknown>): SplitArgs {
  const out: SplitArgs = { path: {}, query: {}, header: {}, body: undefined };
  for (const arg of binding.args) {
    const value = args[arg.name];
    if (value === undefined) continue;
    if (arg.in === 'body') {
      if (binding.body === 'whole') out.body = value;
      else out.body = { ...(out.body as object | undefined), [arg.key]: value };
    } else if (arg.in === 'header') out.header[arg.key] = String(value);
    else out[arg.in][arg.key] = value;
  }
  if (binding.body === 'merged' && out.body === undefined && binding.args.some((a) => a.in === 'body')) out.body = {};
  return out;
}

const fieldText = (item: unknown) => (typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item));

function formBody(body: unknown): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, fieldText(item));
  }
  return params;
}

/** Multipart fields: Blobs (files) as parts of their own, anything else as text. */
function multipartBody(body: unknown): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    for (const item of Array.isArray(value) ? value : [value])
      form.append(key, item instanceof Blob ? item : fieldText(item));
  }
  return form;
}

/** Text and binary bodies go as they are; anything else as JSON text. */
function rawBody(body: unknown): BodyInit {
  if (typeof body === 'string' || body instanceof Blob || body instanceof ArrayBuffer || ArrayBuffer.isView(body))
    return body as BodyInit;
  return JSON.stringify(body);
}

/** How a body of the binding's media type is written; JSON (the default) needs nothing. */
function bodyOptions(contentType: string | undefined): Record<string, unknown> {
  const type = (contentType ?? 'application/json').toLowerCase();
  if (type.includes('json')) return {};
  if (type === 'application/x-www-form-urlencoded')
    return { bodySerializer: formBody, headers: { 'Content-Type': contentType } };
  // fetch writes the multipart Content-Type itself, with the boundary.
  if (type === 'multipart/form-data') return { bodySerializer: multipartBody };
  return { bodySerializer: rawBody, headers: { 'Content-Type': contentType } };
}

/**
 * The binding's `explode: false` query arrays as one comma-joined value (`status=queued,running`), every other
 * parameter as openapi-fetch writes it; undefined when the binding has none.
 */
export function querySerializer(binding: OperationBinding): ((query: Record<string, unknown>) => string) | undefined {
  const joined = new Set(binding.args.filter((a) => a.in === 'query' && a.explode === false).map((a) => a.key));
  if (!joined.size) return undefined;
  const others = createQuerySerializer<Record<string, unknown>>();
  return (query) =>
    Object.entries(query)
      .map(([key, value]) =>
        joined.has(key) && Array.isArray(value)
          ? value.length
            ? serializeArrayParam(key, value, { style: 'form', explode: false })
            : ''
          : others({ [key]: value }),
      )
      .filter(Boolean)
      .join('&');
}

type LooseRequest = (
  method: string,
  path: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * `call` sends the operation a binding names at run time, while openapi-fetch types `request` for literal
 * methods and paths of `Paths` only: the one cast, to the view of the same function that takes strings.
 */
function looseRequest<Paths extends {}>(client: Client<Paths>): LooseRequest {
  return client.request as LooseRequest;
}

export function createRuntime<Paths extends {}>(options: ClientOptions) {
  const fetchImpl = options.fetch ?? ((input: Request) => globalThis.fetch(input));
  const raw = createFetchClient<Paths>({
    baseUrl: options.baseUrl,
    headers: options.headers,
    fetch: retryingFetch(fetchImpl, options.maxRetries ?? 2, options.maxRetryDelayMs ?? 30_000),
  });
  const credential =
    typeof options.credential === 'function' ? options.credential : () => options.credential as string | undefined;
  raw.use({
    onRequest({ request }) {
      const value = credential();
      if (value) request.headers.set('Authorization', `Bearer ${value}`);
      return request;
    },
  });
  const request = looseRequest(raw);

  async function call<T>(binding: OperationBinding, args: Record<string, unknown> = {}): Promise<T> {
    const { path, query, header, body } = splitArgs(binding, args);
    const init: Record<string, unknown> = { params: { path, query, header } };
    const serializer = querySerializer(binding);
    if (serializer) init.querySerializer = serializer;
    if (binding.body !== 'none' && body !== undefined) Object.assign(init, { body }, bodyOptions(binding.contentType));
    if (binding.parseAs) init.parseAs = binding.parseAs;
    if (binding.redirect) init.redirect = binding.redirect;
    const { data, error, response } = await request(binding.method, binding.path, init);
    if (binding.redirect && response.status >= 300 && response.status < 400) {
      const redirect: Redirect = {
        redirect: true,
        status: response.status,
        location: response.headers.get('location'),
      };
      return redirect as T;
    }
    if (!response.ok)
      throw new ApiProblemError(response.status, error, response.headers.get('x-request-id') ?? undefined);
    return data as T;
  }

  return { raw, call };
}
