import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import { createOutboundClient, type OutboundClient } from '../../src/outbound/outbound-client.ts';
import { OutboundError } from '../../src/outbound/outbound-error.ts';
import { startServer, writeRepeatedly, type TestServer } from './test-servers.ts';

const userAgent = 'outbound-test/1.0';
const MiB = 1024 * 1024;

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

// One gzip member inflating to 8 MiB of zeros (about 8 KiB on the wire); gzip allows members to
// be concatenated, so repeating it makes a bomb of any size without compressing it up front.
const gzipMember = gzipSync(Buffer.alloc(8 * MiB), { level: 9 });
const bombMembers = 4096; // 32 GiB once inflated
const zeros = Buffer.alloc(64 * MiB);
const brBomb = brotliCompressSync(zeros, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
const deflateBomb = deflateSync(zeros);

describe('outbound client limits', () => {
  let server: TestServer;
  let client: OutboundClient;
  const bombProgress = { written: -1 };
  const streamProgress = { written: 0, done: false };
  const bigChunk = Buffer.alloc(64 * 1024, 'a');
  const bigChunks = 1600; // 100 MiB

  beforeAll(async () => {
    server = await startServer(async (req, res) => {
      switch (req.url) {
        case '/gzip-bomb':
          res.writeHead(200, { 'content-type': 'text/csv', 'content-encoding': 'gzip' });
          bombProgress.written = await writeRepeatedly(res, gzipMember, bombMembers);
          return;
        case '/br-bomb':
          return void res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' }).end(brBomb);
        case '/deflate-bomb':
          return void res
            .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'deflate' })
            .end(deflateBomb);
        case '/declared-large':
          res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(5 * MiB) });
          return void res.write('a'.repeat(1024));
        case '/exactly-1k':
          return void res.writeHead(200, { 'content-type': 'text/plain' }).end('b'.repeat(1024));
        case '/big':
          res.writeHead(200, { 'content-type': 'text/csv' });
          for (; streamProgress.written < bigChunks; streamProgress.written++) {
            if (!res.write(bigChunk)) await new Promise((resolve) => res.once('drain', resolve));
          }
          streamProgress.done = true;
          return void res.end();
        case '/never-answers':
          return; // holds the request open: no status line, ever
        case '/stalls-mid-body':
          res.writeHead(200, { 'content-type': 'text/plain' });
          return void res.write('first part, then nothing');
        case '/html':
          return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<p>hi</p>');
        case '/csv':
          return void res.writeHead(200, { 'content-type': 'Text/CSV; charset=utf-8' }).end('a,b\n1,2\n');
        case '/missing-html':
          return void res.writeHead(404, { 'content-type': 'text/html' }).end('<p>gone</p>');
        case '/json':
          return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"rows":2}');
        case '/latin1':
          return void res
            .writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' })
            .end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
        default:
          return void res.writeHead(200, { 'content-type': 'text/plain' }).end('not json');
      }
    });
    client = createOutboundClient({ userAgent, allowPrivate: true, maxBytes: MiB });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('cuts a gzip bomb off by its decompressed size while streaming, before the server has sent it all', async () => {
    const response = await client.fetch(`${server.origin}/gzip-bomb`);
    let received = 0;
    const error = await failure(
      (async () => {
        for await (const chunk of response.chunks()) received += chunk.byteLength;
      })(),
    );
    expect(error.reason).toBe('response_too_large');
    expect(error.details.limitBytes).toBe(MiB);
    expect(received).toBeLessThanOrEqual(MiB);
    // The server's write loop ends once the client has dropped the connection.
    await expect.poll(() => bombProgress.written, { timeout: 30_000 }).toBeGreaterThanOrEqual(0);
    expect(bombProgress.written).toBeLessThan(bombMembers);
  });

  it.each(['/br-bomb', '/deflate-bomb'])('refuses the %s by its decompressed size in text()', async (path) => {
    const response = await client.fetch(`${server.origin}${path}`);
    expect((await failure(response.text())).reason).toBe('response_too_large');
  });

  it('refuses a response whose declared length is over the cap before reading it', async () => {
    const error = await failure(client.fetch(`${server.origin}/declared-large`));
    expect(error.reason).toBe('response_too_large');
  });

  it('accepts a body of exactly the cap and refuses one byte more', async () => {
    expect(await (await client.fetch(`${server.origin}/exactly-1k`, { maxBytes: 1024 })).text()).toHaveLength(1024);
    const over = await client.fetch(`${server.origin}/exactly-1k`, { maxBytes: 1023 });
    expect((await failure(over.text())).reason).toBe('response_too_large');
  });

  it('streams a body far larger than memory would hold, chunk by chunk, while the server is still sending', async () => {
    const response = await client.fetch(`${server.origin}/big`, { maxBytes: 200 * MiB, accept: ['text/csv'] });
    let bytes = 0;
    let chunks = 0;
    let serverDoneAtFirstChunk: boolean | undefined;
    for await (const chunk of response.chunks()) {
      serverDoneAtFirstChunk ??= streamProgress.done;
      bytes += chunk.byteLength;
      chunks++;
    }
    expect(bytes).toBe(bigChunks * bigChunk.byteLength);
    expect(chunks).toBeGreaterThan(100);
    expect(serverDoneAtFirstChunk).toBe(false);
  });

  it('times out a server that never answers instead of hanging', async () => {
    const error = await failure(client.fetch(`${server.origin}/never-answers`, { timeoutMs: 300 }));
    expect(error.reason).toBe('timeout');
    expect(error.details.limitMs).toBe(300);
  });

  // The server sends its headers and a first chunk at once, then nothing; the limits are long enough for the headers
  // to arrive on a loaded CI machine (at 300 ms the idle limit once fired before them, failing the fetch instead).
  it('times out a body that stops arriving', async () => {
    const response = await client.fetch(`${server.origin}/stalls-mid-body`, { timeoutMs: 2_000 });
    const error = await failure(response.text());
    expect(error.reason).toBe('timeout');
    expect(error.details.limitMs).toBe(2_000);
  });

  it('times out on silence between chunks with the idle timeout', async () => {
    const idle = createOutboundClient({ userAgent, allowPrivate: true, idleTimeoutMs: 2_000 });
    const response = await idle.fetch(`${server.origin}/stalls-mid-body`);
    const error = await failure(response.text()).finally(() => idle.close());
    expect(error.reason).toBe('timeout');
    expect(error.details.limitMs).toBe(2_000);
  });

  it('passes a caller abort through unchanged', async () => {
    const controller = new AbortController();
    const pending = client.fetch(`${server.origin}/never-answers`, { signal: controller.signal });
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('refuses a media type the call does not accept, and sends the accepted ones as Accept', async () => {
    const error = await failure(client.fetch(`${server.origin}/html`, { accept: ['text/csv', 'text/plain'] }));
    expect(error.reason).toBe('unsupported_media_type');
    expect(error.details.contentType).toBe('text/html');
    expect(server.requests.at(-1)?.headers.accept).toBe('text/csv, text/plain');
  });

  it('matches media types without parameters or case, and by type/*', async () => {
    const exact = await client.fetch(`${server.origin}/csv`, { accept: ['text/csv'] });
    expect(exact.mediaType).toBe('text/csv');
    expect(await exact.text()).toBe('a,b\n1,2\n');
    await (await client.fetch(`${server.origin}/html`, { accept: ['text/*'] })).cancel();
  });

  it('leaves the media type of an error response to the caller', async () => {
    const response = await client.fetch(`${server.origin}/missing-html`, { accept: ['text/csv'] });
    expect(response.status).toBe(404);
    expect(response.ok).toBe(false);
    await response.cancel();
  });

  it('parses JSON and reports a body that is not JSON as response_invalid', async () => {
    expect(await (await client.fetch(`${server.origin}/json`)).json()).toEqual({ rows: 2 });
    expect((await failure((await client.fetch(`${server.origin}/plain`)).json())).reason).toBe('response_invalid');
  });

  it('decodes text in the charset the response declares', async () => {
    expect(await (await client.fetch(`${server.origin}/latin1`)).text()).toBe('café');
  });
});
