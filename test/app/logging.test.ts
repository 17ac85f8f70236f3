import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createServices, type Services } from '../../src/services.ts';
import type { Database } from '../../src/db/connection.ts';
import { createTestDatabase } from '../helpers/db.ts';

const lines: string[] = [];
let db: Database;
let services: Services;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  db = await createTestDatabase();
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  services = await createServices({
    db,
    config: loadConfig({}),
    log: pino({ level: 'debug' }, sink),
    argon2Params: { memoryCost: 1024, timeCost: 1, parallelism: 1, outputLen: 32 },
  });
  app = createApp(services.deps);
});
afterAll(async () => {
  await services?.close();
  await db?.close();
});

const post = (path: string, body: unknown, token?: string) =>
  app.request(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

describe('structured logs', () => {
  it('log one JSON line per request with its request id and never a password, token or key', async () => {
    const password = 'very secret password 123';
    const signup = await (
      await post('/api/v1/users/signup', { email: 'log@example.com', password, name: 'L', workspace_name: 'W' })
    ).json();
    const token = signup.login.access_token as string;
    const key = (await (await post('/api/v1/api-keys', { name: 'k' }, token)).json()).key as string;
    const res = await app.request('/api/v1/users/me', {
      headers: { Authorization: `Bearer ${key}`, 'X-Request-Id': 'trace-me-12345' },
    });
    expect(res.status).toBe(200);
    await post('/api/v1/users/login', { email: 'log@example.com', password: 'wrong password!!' });
    const all = lines.join('');
    for (const secret of [password, token, key, key.slice(13), 'wrong password!!']) expect(all).not.toContain(secret);
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const meLine = parsed.find((l) => l.request_id === 'trace-me-12345');
    expect(meLine).toMatchObject({ method: 'GET', path: '/api/v1/users/me', status: 200 });
  });
});
