// One request over node:http on a socket the guarded connector opened: the status, the headers and
// the decoded body as a pull-based web stream, read no further ahead than the consumer asks.
// Why node:http and not undici: undici 7's HTTP/1.1 parser asserts, inside a socket event (so the
// whole process dies), when a server ends a body by closing the connection while the parser is
// paused by backpressure (nodejs/undici#5360: an HTTP/1.0 server streaming a large CSV is enough).
// The fix is in undici 8 alone, which needs Node >= 22.19. Node's own client stops reading the
// socket for backpressure and finishes its parser on EOF whatever the reader is doing, on every
// Node the service supports.
import http from 'node:http';
import type net from 'node:net';
import { PassThrough, pipeline, type Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { Connector } from './connector.ts';
import { OutboundError } from './outbound-error.ts';
import type { Hop } from './redirects.ts';

export interface TransportResponse {
  status: number;
  headers: Headers;
  /** The body after Content-Encoding is undone; errors with what broke it (a timeout, a reset). */
  body: ReadableStream<Uint8Array>;
}

export interface Transport {
  send(hop: Hop, signal: AbortSignal): Promise<TransportResponse>;
  close(): void;
}

const silence = (ms: number) => new OutboundError('timeout', `the server was silent for ${ms} ms`, { limitMs: ms });

/** A keep-alive agent whose every socket comes from the guarded connector (TLS included, for https). */
function guardedAgent(connect: Connector, protocol: 'http:' | 'https:'): http.Agent {
  const agent = new http.Agent({ keepAlive: true });
  agent.createConnection = (args, callback) => {
    connect({ protocol, hostname: String(args.host), port: Number(args.port) }, (error, socket) =>
      callback?.(error, socket as net.Socket),
    );
    return undefined;
  };
  return agent;
}

/** Decoders for Content-Encoding, in the order to apply them; none when a coding is unknown (the body is passed as sent). */
function decoders(contentEncoding: string | undefined): Transform[] {
  // Tolerates a body cut short after a complete block, as browsers and undici do.
  const lenient = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const make: Record<string, () => Transform> = {
    gzip: () => zlib.createGunzip(lenient),
    'x-gzip': () => zlib.createGunzip(lenient),
    deflate: () => zlib.createInflate(lenient),
    br: () =>
      zlib.createBrotliDecompress({
        flush: zlib.constants.BROTLI_OPERATION_FLUSH,
        finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
      }),
  };
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  if (codings.some((c) => !Object.hasOwn(make, c))) return [];
  return codings.reverse().map((c) => make[c]());
}

/**
 * The response body as a web stream that reads one chunk per pull. The idle timeout runs only while
 * a pull waits: a reader that is slow on purpose (an import writing a batch) is not the server's silence.
 */
function bodyStream(
  response: http.IncomingMessage,
  idleTimeoutMs: number,
  decode: boolean,
): { body: ReadableStream<Uint8Array>; fail(error: Error): void } {
  const output = new PassThrough();
  const stages = decode ? decoders(response.headers['content-encoding']) : [];
  // pipeline owns every stage's errors and destroys them all (and the socket) on the first one.
  pipeline([response, ...stages, output] as [Readable, ...Transform[], PassThrough], () => {});
  const chunks = output[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const timer = setTimeout(() => output.destroy(silence(idleTimeoutMs)), idleTimeoutMs);
        try {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } finally {
          clearTimeout(timer);
        }
      },
      async cancel() {
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
  return {
    body,
    // Only while the response is unfinished: an error after its last byte (a kept-alive socket's) spoils nothing.
    fail: (error) => {
      if (!response.complete) output.destroy(error);
    },
  };
}

function headersOf(raw: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i], raw[i + 1]);
    } catch {
      // A header value fetch's Headers refuses (Node's parser is more lenient): not one we read.
    }
  }
  return headers;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
// A request goes on to a new socket after this many kept-alive ones failed (each failed one is gone from the pool).
const MAX_STALE_SOCKETS = 4;

/** A request on a kept-alive socket failed before any byte of an answer; `cause` is how. */
class StaleSocketError extends Error {
  constructor(readonly cause: Error) {
    super(cause.message);
  }
}

/** How a socket the server had already closed fails a request written to it. */
const isStaleSocketError = (error: Error): boolean =>
  ['ECONNRESET', 'EPIPE', 'ECONNABORTED'].includes((error as NodeJS.ErrnoException).code ?? '');

export function createHttpTransport(options: { connect: Connector; idleTimeoutMs: number }): Transport {
  const { idleTimeoutMs } = options;
  const agents = { 'http:': guardedAgent(options.connect, 'http:'), 'https:': guardedAgent(options.connect, 'https:') };

  /**
   * Sends the hop, again on another socket when a kept-alive one fails before any answer: a server may close an idle
   * connection just as a request is written to it (Node's server does after 5 s; on a loaded machine the client's
   * own timer for that, from the Keep-Alive hint, fires too late). The request never reached the server then, so
   * an idempotent one is sent again, as browsers and undici do; any other is not, for it may have.
   */
  async function send(hop: Hop, signal: AbortSignal): Promise<TransportResponse> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await sendOnce(hop, signal);
      } catch (error) {
        if (!(error instanceof StaleSocketError)) throw error;
        if (attempt >= MAX_STALE_SOCKETS || !IDEMPOTENT.has(hop.method.toUpperCase()) || signal.aborted)
          throw error.cause;
      }
    }
  }

  function sendOnce(hop: Hop, signal: AbortSignal): Promise<TransportResponse> {
    const { url } = hop;
    const protocol = url.protocol as keyof typeof agents;
    const headers: Record<string, string> = {
      'accept-encoding': 'gzip, deflate, br',
      ...Object.fromEntries(hop.headers),
      host: url.host,
    };
    const body = typeof hop.body === 'string' ? Buffer.from(hop.body) : hop.body;
    if (body) headers['content-length'] = String(body.byteLength);
    return new Promise((resolve, reject) => {
      const request = http.request({
        host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: Number(url.port) || (protocol === 'https:' ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: hop.method,
        headers,
        agent: agents[protocol],
        signal,
      });
      const timer = setTimeout(() => request.destroy(silence(idleTimeoutMs)), idleTimeoutMs);
      let failBody: ((error: Error) => void) | undefined;
      // Kept for the request's whole life: a later error (after the answer) fails the body's reader instead. It
      // must: a body that ends where the connection ends (HTTP/1.0 with no Content-Length, as `python3 -m
      // http.server` sends) is one Node's client finishes as complete when its socket fails or the request is
      // aborted, and tells only the request why. Unfailed, an abort or a reset would read as the end of the file.
      request.on('error', (error) => {
        clearTimeout(timer);
        if (failBody) failBody(error);
        else if (request.reusedSocket && isStaleSocketError(error)) reject(new StaleSocketError(error));
        else reject(error);
      });
      request.once('response', (response) => {
        clearTimeout(timer);
        const bodiless = hop.method === 'HEAD' || response.statusCode === 204 || response.statusCode === 304;
        const { body, fail } = bodyStream(response, idleTimeoutMs, !bodiless);
        failBody = fail;
        resolve({ status: response.statusCode ?? 0, headers: headersOf(response.rawHeaders), body });
      });
      request.end(body);
    });
  }

  return {
    send,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
