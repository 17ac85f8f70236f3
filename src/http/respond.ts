// Writes a handler's `{status, body, headers}` as an HTTP response. The Content-Type is the media type the
// contract declares for that status, never a guess from the body: JSON bodies are serialized, text bodies
// (CSV, HTML) go as they are or streamed, and HTML pages carry a strict Content-Security-Policy.
import type { MediaEntry, OperationMeta } from '../generated/routes.ts';
import { pageHeaders } from './security-headers.ts';

export type HandlerResult = { status: number; body?: unknown; headers?: Record<string, string> };

/** JSON and text bodies the app wrote, by response, so in-process MCP tool calls need not read them back. */
export type BodyTexts = WeakMap<Response, string>;

/** The declared response for a status: the exact code, then its range (`4XX`), then `default`. */
export function declaredMedia(op: Pick<OperationMeta, 'responses'>, status: number): MediaEntry | null | undefined {
  const { responses } = op;
  const key = String(status);
  for (const candidate of [key, `${key[0]}XX`, 'default']) {
    if (Object.hasOwn(responses, candidate)) return responses[candidate];
  }
  return undefined;
}

function contentType(media: MediaEntry): string {
  return media.kind === 'text' && media.type.startsWith('text/') && !/;\s*charset=/i.test(media.type)
    ? `${media.type}; charset=utf-8`
    : media.type;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<string | Uint8Array> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/** An async iterable of strings or bytes as a byte stream that pulls one chunk per read (back-pressure). */
function streamOf(chunks: AsyncIterable<string | Uint8Array>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(typeof value === 'string' ? encoder.encode(value) : value);
    },
    async cancel(reason) {
      await iterator.return?.(reason);
    },
  });
}

function textBody(body: unknown): { text?: string; init: BodyInit } {
  if (typeof body === 'string') return { text: body, init: body };
  if (body instanceof ReadableStream) return { init: body };
  if (isAsyncIterable(body)) return { init: streamOf(body) };
  throw new TypeError(
    `a text response body must be a string, a ReadableStream or an async iterable, not ${typeof body}`,
  );
}

export function respond(out: HandlerResult, op: Pick<OperationMeta, 'responses'>, texts: BodyTexts): Response {
  const declared = declaredMedia(op, out.status);
  // A handler's status the contract does not describe (types forbid it) keeps the JSON default.
  const media =
    declared === undefined
      ? { type: out.status >= 400 ? 'application/problem+json' : 'application/json', kind: 'json' as const }
      : declared;
  const headers = new Headers(media?.type.toLowerCase() === 'text/html' ? pageHeaders : undefined);
  for (const [name, value] of Object.entries(out.headers ?? {})) headers.set(name, value);
  if (out.body === undefined || media === null) return new Response(null, { status: out.status, headers });
  headers.set('Content-Type', contentType(media));
  const { text, init } =
    media.kind === 'json' ? { text: JSON.stringify(out.body), init: undefined } : textBody(out.body);
  if (media.kind !== 'json') headers.set('X-Content-Type-Options', 'nosniff');
  const response = new Response(init ?? text, { status: out.status, headers });
  if (text !== undefined) texts.set(response, text);
  return response;
}
