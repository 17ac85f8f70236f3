// A webhook receiver on a real port that verifies every delivery with the published Standard
// Webhooks library (`standardwebhooks`), records what it got, and answers with the statuses a test
// scripts (200 once the script runs out).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: Record<string, string>;
  body: string;
  /** The payload, when the signature verified; undefined when it did not. */
  verified?: Record<string, any>;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Statuses for the next requests, in order. */
  answer(...statuses: number[]): void;
  /** Verify with this secret from now on. */
  useSecret(secret: string): void;
  /** Resolves once `n` requests have arrived. */
  waitFor(n: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hooks'): Promise<Receiver> {
  const received: Received[] = [];
  const script: number[] = [];
  const waiters: Array<() => void> = [];
  let webhook: Webhook | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      let verified: Record<string, any> | undefined;
      try {
        verified = webhook?.verify(body, headers) as Record<string, any>;
      } catch {
        verified = undefined;
      }
      received.push({ headers, body, verified });
      res.statusCode = req.url === path ? (script.shift() ?? 200) : 404;
      res.end('ok');
      waiters.splice(0).forEach((w) => w());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    answer: (...statuses) => script.push(...statuses),
    useSecret: (secret) => {
      webhook = new Webhook(secret);
    },
    async waitFor(n) {
      while (received.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
