// Throttling of POST /mcp on the real app: every MCP message counts once against its credential, as a
// REST request does, and the REST request a tool call runs is not counted a second time; public tools are
// throttled per real client address.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { postMcp, rpc, toolText } from './fixtures/mcp-post.ts';

const LIMIT = 4;
// A fixed clock keeps every request of a test in one rate-limit window.
const clock = { now: () => new Date('2026-03-02T10:00:30Z') };
const v2025 = { 'mcp-protocol-version': '2025-11-25' };

describe('POST /mcp throttling per credential', () => {
  let t: TestApp;
  let minting: TestApp;
  let jwt: string;
  beforeAll(async () => {
    t = await createTestApp({ clock, env: { RATE_LIMIT_PER_CREDENTIAL: String(LIMIT) } });
    // Keys are minted through a second instance without the low limit, so minting spends no quota here.
    minting = await createTestApp({ clock, db: t.db });
    jwt = (await minting.signup()).token;
  });
  afterAll(async () => {
    await minting.close();
    await t.close();
  });
  const freshKey = async () => (await minting.createKey(jwt, 'throttled')).key;

  it.each([
    ['tools/list', rpc('tools/list')],
    ['ping', rpc('ping')],
    [
      'initialize',
      rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }),
    ],
  ])(
    'counts %s against the credential and answers 429 with Retry-After and RateLimit headers',
    async (_name, message) => {
      const key = await freshKey();
      for (let i = 0; i < LIMIT; i++) {
        const res = await postMcp(t.app, message, { ...v2025, authorization: `Bearer ${key}` });
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"credential";r=${LIMIT - i - 1};t=\\d+$`));
      }
      const refused = await postMcp(t.app, message, { ...v2025, authorization: `Bearer ${key}` });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('ratelimit')).toMatch(/^"credential";r=0;t=\d+$/);
      expect(await refused.json()).toMatchObject({ status: 429, code: 'rate_limited' });
    },
  );

  it('shares one quota between REST and MCP for the same credential', async () => {
    const key = await freshKey();
    for (let i = 0; i < LIMIT; i++)
      expect((await postMcp(t.app, rpc('tools/list'), { ...v2025, authorization: `Bearer ${key}` })).status).toBe(200);
    expect((await t.request('/api/v1/users/me', { token: key })).status).toBe(429);
  });

  it('counts every message of a batch and refuses the batch as a whole when they do not all fit', async () => {
    const key = await freshKey();
    const batch = (first: number) => [rpc('ping', {}, first), rpc('ping', {}, first + 1), rpc('ping', {}, first + 2)];
    const admitted = await postMcp(t.app, batch(1), { authorization: `Bearer ${key}` });
    expect(admitted.status).toBe(200);
    expect(await admitted.json()).toHaveLength(3);
    const refused = await postMcp(t.app, batch(4), { authorization: `Bearer ${key}` });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'rate_limited' });
  });

  it('counts a tool call once, not again for the REST request it runs', async () => {
    const key = await freshKey();
    for (let i = 0; i < LIMIT; i++) {
      const res = await postMcp(t.app, rpc('tools/call', { name: 'get_me', arguments: {} }), {
        ...v2025,
        authorization: `Bearer ${key}`,
      });
      const message = (await res.json()) as { result?: { isError?: boolean; content?: { text?: string }[] } };
      expect(res.status).toBe(200);
      expect(message.result?.isError, toolText(message)).toBeFalsy();
    }
    const refused = await postMcp(t.app, rpc('tools/call', { name: 'get_me', arguments: {} }), {
      ...v2025,
      authorization: `Bearer ${key}`,
    });
    expect(refused.status).toBe(429);
  });
});

describe('public tools over MCP behind a trusted proxy', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp({ clock, env: { TRUST_PROXY: 'true', RATE_LIMIT_PER_ADDRESS: '2' } });
    key = (await t.createKey((await t.signup()).token, 'proxy')).key;
  });
  afterAll(() => t.close());

  const login = (forwardedFor: string) =>
    postMcp(
      t.app,
      rpc('tools/call', { name: 'login', arguments: { email: 'nobody@example.com', password: 'not the password' } }),
      {
        ...v2025,
        authorization: `Bearer ${key}`,
        'x-forwarded-for': `${forwardedFor}, 10.0.0.1`,
      },
    ).then(async (res) => toolText((await res.json()) as never));

  it('throttles a public tool per forwarded client address', async () => {
    expect(await login('203.0.113.7')).toMatch(/^401 /);
    expect(await login('203.0.113.7')).toMatch(/^401 /);
    expect(await login('203.0.113.7')).toMatch(/^429 /);
    expect(await login('198.51.100.9')).toMatch(/^401 /);
  });
});
