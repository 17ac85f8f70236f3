// Browser-facing rules of POST /mcp on the real app with the default configuration (no
// MCP_ALLOWED_ORIGINS): loopback pages (the MCP Inspector's UI, a local dev server) may call it, other
// origins may not, and on a loopback bind a Host that is not loopback is refused (DNS rebinding).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { postMcp, rpc } from './fixtures/mcp-post.ts';

let t: TestApp;
let publicApp: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp();
  publicApp = await createTestApp({ db: t.db, env: { PUBLIC_BASE_URL: 'https://api.example.com' } });
  key = (await t.createKey((await t.signup()).token, 'origins')).key;
});
afterAll(async () => {
  await publicApp.close();
  await t.close();
});

const list = (headers: Record<string, string>, app = t) =>
  postMcp(app.app, rpc('tools/list'), {
    'mcp-protocol-version': '2025-11-25',
    authorization: `Bearer ${key}`,
    ...headers,
  });

describe('POST /mcp Origin with the default configuration', () => {
  it.each([
    'http://localhost:6274',
    'http://localhost',
    'https://localhost:8443',
    'http://127.0.0.1:5173',
    'http://[::1]:3000',
  ])('accepts the loopback Origin %s', async (origin) => {
    expect((await list({ origin })).status).toBe(200);
  });

  it.each(['https://evil.example', 'http://localhost.evil.example', 'http://127.0.0.1.evil.example', 'null'])(
    'refuses the Origin %s with 403',
    async (origin) => {
      const res = await list({ origin });
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe(-32000);
    },
  );
});

describe('POST /mcp Host on a loopback bind (HOST=127.0.0.1, the default)', () => {
  it.each(['127.0.0.1:3000', 'localhost:3000', 'localhost', '[::1]:3000'])('accepts Host %s', async (host) => {
    expect((await list({ host })).status).toBe(200);
  });

  it('refuses a Host that is not loopback, as DNS rebinding protection asks', async () => {
    const res = await list({ host: 'evil.example.com' });
    expect(res.status).toBe(403);
    expect((await res.json()).error.message).toMatch(/Host evil\.example\.com/);
  });

  it('accepts the host of PUBLIC_BASE_URL, which a reverse proxy in front forwards', async () => {
    expect((await list({ host: 'api.example.com' }, publicApp)).status).toBe(200);
    expect((await list({ host: 'evil.example.com' }, publicApp)).status).toBe(403);
  });
});
