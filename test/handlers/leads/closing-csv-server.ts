// A file server as simple as `python3 -m http.server`: it answers HTTP/1.0 with no Content-Length
// and ends the body by closing the connection (the case undici 7's parser died on, issue 26).
// Raw TCP, so no HTTP library of ours or Node's shapes what goes on the wire.
import net, { type AddressInfo } from 'node:net';

export interface ClosingServer {
  url: string;
  /** Requests answered in full so far. */
  answered: number;
  close(): Promise<void>;
}

/** Serves `body` (bytes) as text/csv to every request, in 64 KiB writes that honour backpressure. */
export async function serveThenClose(body: Buffer): Promise<ClosingServer> {
  const state = { answered: 0 };
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
      void answer(socket, body).then(
        () => (state.answered += 1),
        () => {},
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
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function answer(socket: net.Socket, body: Buffer): Promise<void> {
  socket.write('HTTP/1.0 200 OK\r\nServer: SimpleHTTP/0.6 Python/3\r\nContent-type: text/csv\r\n\r\n');
  for (let at = 0; at < body.length; at += 64 * 1024) {
    if (socket.destroyed) throw new Error('the client went away');
    if (!socket.write(body.subarray(at, at + 64 * 1024))) await new Promise((resolve) => socket.once('drain', resolve));
  }
  await new Promise<void>((resolve) => socket.end(resolve));
}
