// A file server as simple as `python3 -m http.server`: it answers HTTP/1.0 with no Content-Length
// and ends the body by closing the connection (the case undici 7's parser died on, issue 26).
// Raw TCP, so no HTTP library of ours or Node's shapes what goes on the wire.
import net, { type AddressInfo } from 'node:net';

export interface ClosingServer {
  url: string;
  /** Requests answered in full so far. */
  answered: number;
  /** Requests whose client went away before the whole body was sent. */
  abandoned: number;
  /** With `holdAfter`: lets the first answer go on past the held point. */
  release(): void;
  close(): Promise<void>;
}

/**
 * Serves `body` (bytes) as text/csv to every request, in 64 KiB writes that honour backpressure. With
 * `holdAfter`, the first answer stops after that many bytes until release(); later ones send all of it.
 */
export async function serveThenClose(body: Buffer, options: { holdAfter?: number } = {}): Promise<ClosingServer> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let requests = 0;
  const state = { answered: 0, abandoned: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let head = '';
    const onData = (data: Buffer) => {
      head += data.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      requests += 1;
      const hold = requests === 1 && options.holdAfter !== undefined ? { at: options.holdAfter, released } : undefined;
      void answer(socket, body, hold).then(
        () => (state.answered += 1),
        () => (state.abandoned += 1),
      );
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/leads.csv`,
    get answered() {
      return state.answered;
    },
    get abandoned() {
      return state.abandoned;
    },
    release,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function answer(socket: net.Socket, body: Buffer, hold?: { at: number; released: Promise<void> }): Promise<void> {
  const gone = new Promise<never>((_, reject) => socket.once('close', () => reject(new Error('the client went away'))));
  gone.catch(() => {});
  socket.write('HTTP/1.0 200 OK\r\nServer: SimpleHTTP/0.6 Python/3\r\nContent-type: text/csv\r\n\r\n');
  const send = async (from: number, to: number) => {
    for (let at = from; at < to; at += 64 * 1024) {
      if (socket.destroyed) throw new Error('the client went away');
      const part = body.subarray(at, Math.min(at + 64 * 1024, to));
      if (!socket.write(part)) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), gone]);
    }
  };
  if (hold) {
    await send(0, hold.at);
    await Promise.race([hold.released, gone]);
  }
  await send(hold?.at ?? 0, body.length);
  await new Promise<void>((resolve) => socket.end(resolve));
}
