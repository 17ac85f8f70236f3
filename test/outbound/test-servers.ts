// Real HTTP(S) servers for the outbound client's tests: each records the connections it accepted
// and the requests it received, so a test can prove a refused URL never reached it.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export const testCa = readFileSync(new URL('./fixtures/test-cert.pem', import.meta.url), 'utf8');
const testKey = readFileSync(new URL('./fixtures/test-key.pem', import.meta.url), 'utf8');

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => unknown;

export interface TestServer {
  /** `http(s)://host:port` without a trailing slash. */
  origin: string;
  port: number;
  connections: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startServer(
  handler: Handler,
  options: { host?: string; tls?: boolean } = {},
): Promise<TestServer> {
  const host = options.host ?? '127.0.0.1';
  const listener = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    const body = Buffer.concat(parts).toString('utf8');
    state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    try {
      await handler(req, res, body);
    } catch {
      res.destroy();
    }
  };
  const server = options.tls
    ? https.createServer({ cert: testCa, key: testKey }, listener)
    : http.createServer(listener);
  const state = { connections: 0, requests: [] as RecordedRequest[] };
  // Raw TCP connections, TLS or not: a refused URL must not even open one.
  server.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `${options.tls ? 'https' : 'http'}://${host}:${port}`,
    port,
    get connections() {
      return state.connections;
    },
    requests: state.requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes `chunk` `times` times, honouring backpressure; resolves with how many were written. */
export async function writeRepeatedly(res: http.ServerResponse, chunk: Buffer, times: number): Promise<number> {
  let written = 0;
  for (; written < times; written++) {
    if (res.destroyed) break;
    if (!res.write(chunk)) {
      const open = await new Promise<boolean>((resolve) => {
        const done = (value: boolean) => {
          res.off('drain', onDrain);
          res.off('close', onClose);
          resolve(value);
        };
        const onDrain = () => done(true);
        const onClose = () => done(false);
        res.on('drain', onDrain);
        res.on('close', onClose);
      });
      if (!open) break;
    }
  }
  if (!res.destroyed) res.end();
  return written;
}
