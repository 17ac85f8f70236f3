// A body that ends where the connection ends (HTTP/1.0 with no Content-Length, as `python3 -m http.server`
// answers) has no length to check it against: only the way the connection ended says whether it is whole. A
// reset, or the caller's abort, half-way must fail the reader, never read as the end of the file (a lead import
// once counted such a prefix as the whole CSV and finished).
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createOutboundClient } from '../../src/outbound/outbound-client.ts';
import { OutboundError } from '../../src/outbound/outbound-error.ts';

const HEAD = 'HTTP/1.0 200 OK\r\nContent-Type: text/csv\r\n\r\n';
const PART = Buffer.from('email,first_name\n'.repeat(20_000));

type Ending = 'end' | 'reset';
const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** Raw TCP: sends the head and PART, then ends the connection (FIN) or resets it (RST) once `ready` settles. */
async function closingServer(ending: Ending, ready: Promise<void> = Promise.resolve()): Promise<string> {
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', async () => {
      socket.write(HEAD);
      socket.write(PART);
      await ready;
      if (ending === 'reset') socket.resetAndDestroy();
      else socket.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/leads.csv`;
}

/** Reads the body slowly, a chunk at a time; `onChunk` runs after each. Resolves with the bytes, or the error. */
async function readAll(
  chunks: AsyncIterable<Uint8Array>,
  onChunk: (received: number) => void = () => {},
): Promise<{ bytes: number; error?: unknown }> {
  let bytes = 0;
  try {
    for await (const chunk of chunks) {
      bytes += chunk.byteLength;
      onChunk(bytes);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    return { bytes };
  } catch (error) {
    return { bytes, error };
  }
}

const client = () => {
  const c = createOutboundClient({ userAgent: 'outbound-test/1.0', allowPrivate: true });
  closers.push(() => void c.close());
  return c;
};

describe('a body that ends with its connection', () => {
  it('is read whole when the server ends the connection after the last byte', async () => {
    const res = await client().fetch(await closingServer('end'), { accept: ['text/csv'] });
    expect(await readAll(res.chunks())).toEqual({ bytes: PART.byteLength });
  });

  it('fails the reader with connection_failed when the server resets the connection half-way', async () => {
    let reset!: () => void;
    const url = await closingServer('reset', new Promise<void>((resolve) => (reset = resolve)));
    const res = await client().fetch(url, { accept: ['text/csv'] });
    // The reset comes once the reader holds part of the body, with the rest still in flight or buffered.
    const read = await readAll(res.chunks(), (bytes) => bytes > 0 && reset());
    expect(read.error).toBeInstanceOf(OutboundError);
    expect((read.error as OutboundError).reason).toBe('connection_failed');
    expect(read.bytes).toBeLessThanOrEqual(PART.byteLength);
  });

  it("fails the reader with the caller's abort reason when the caller aborts half-way", async () => {
    const url = await closingServer('end', new Promise(() => {}));
    const controller = new AbortController();
    const reason = new Error('the job lost its lease');
    const res = await client().fetch(url, { accept: ['text/csv'], signal: controller.signal });
    const read = await readAll(res.chunks(), (bytes) => bytes > PART.byteLength / 2 && controller.abort(reason));
    expect(read.error).toBe(reason);
    expect(read.bytes).toBeLessThan(PART.byteLength);
  });
});
