// A tools/call on the real app runs the REST pipeline once: the /mcp request's verified principal, request
// id and client address are carried into the in-process REST request, so the credential is checked once,
// the logs link the two, and the REST route's validation is the one check of the arguments. Scope checks and
// error mapping stay the REST ones.

import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import type { Authenticator } from '../../src/auth/authenticator.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { postMcp, rpc, toolText } from './fixtures/mcp-post.ts';

type ToolAnswer = {
  result?: { isError?: boolean; content?: { text?: string }[]; structuredContent?: Record<string, unknown> };
};

let t: TestApp;
let jwt: string;
let key: string;
beforeAll(async () => {
  t = await createTestApp();
  jwt = (await t.signup()).token;
  key = (await t.createKey(jwt, 'carried')).key;
});
afterAll(() => t.close());

const v2025 = { 'mcp-protocol-version': '2025-11-25' };
const call = (
  app: ReturnType<typeof createApp>,
  name: string,
  args: Record<string, unknown>,
  headers: Record<string, string>,
) => postMcp(app, rpc('tools/call', { name, arguments: args }), { ...v2025, ...headers });

describe('tools/call authentication', () => {
  it.each(['a JWT', 'an API key'])('authenticates a tool call with %s once', async (kind) => {
    const credential = kind === 'a JWT' ? jwt : key;
    let calls = 0;
    // The real authenticator, counted: the app under test gets it through deps like any other.
    const counting: Authenticator = {
      ...t.deps.auth.authenticator,
      authenticate: (header) => (calls++, t.deps.auth.authenticator.authenticate(header)),
    };
    const app = createApp({ ...t.deps, auth: { ...t.deps.auth, authenticator: counting } });
    const res = await call(app, 'get_me', {}, { authorization: `Bearer ${credential}` });
    const answer = (await res.json()) as ToolAnswer;
    expect(answer.result?.isError, toolText(answer)).toBeFalsy();
    expect(calls).toBe(1);
  });

  it('still checks the scope of each operation for the carried principal', async () => {
    const narrow = await t.createKey(jwt, 'users:read only');
    await t.db.sql`update api_keys set scopes = ${['users:read']} where id = ${narrow.id}`;
    const me = (await (
      await call(t.app, 'get_me', {}, { authorization: `Bearer ${narrow.key}` })
    ).json()) as ToolAnswer;
    expect(me.result?.isError).toBeFalsy();
    const keys = (await (
      await call(t.app, 'list_api_keys', {}, { authorization: `Bearer ${narrow.key}` })
    ).json()) as ToolAnswer;
    expect(keys.result?.isError).toBe(true);
    expect(toolText(keys)).toMatch(/^403 .*api_keys:read/);
  });
});

describe('tools/call request ids', () => {
  it('logs the inner REST request under the request id of the /mcp request', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    });
    const app = createApp({ ...t.deps, log: pino({ level: 'info' }, sink) });
    const res = await call(
      app,
      'revoke_api_key',
      { key_id: `key_${'0'.repeat(26)}` },
      { authorization: `Bearer ${key}`, 'x-request-id': 'mcp-trace-0001' },
    );
    expect(res.headers.get('x-request-id')).toBe('mcp-trace-0001');
    const answer = (await res.json()) as ToolAnswer;
    expect(toolText(answer)).toMatch(/^404 [\s\S]*request_id: mcp-trace-0001/);
    const linked = lines.filter((line) => line.request_id === 'mcp-trace-0001').map((line) => line.path);
    expect(linked).toEqual(expect.arrayContaining(['/mcp', `/api/v1/api-keys/key_${'0'.repeat(26)}`]));
  });
});

describe('tools/call argument validation', () => {
  it('validates arguments with the REST route and names the tool argument in the result', async () => {
    const res = await call(t.app, 'create_api_key', { name: '' }, { authorization: `Bearer ${jwt}` });
    const answer = (await res.json()) as ToolAnswer;
    expect(answer.result?.isError).toBe(true);
    const text = toolText(answer);
    expect(text).toMatch(
      /^400 Bad Request: Invalid arguments for create_api_key: `name` [^\n]+\. Fix them and call create_api_key again\.\n/,
    );
    // The problem itself follows (as text: the tool has an outputSchema), as the REST route answered it.
    expect(JSON.parse(text.slice(text.indexOf('\n\n') + 2))).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('names a query argument the REST route refuses', async () => {
    const res = await call(t.app, 'list_api_keys', { limit: 0 }, { authorization: `Bearer ${jwt}` });
    const text = toolText((await res.json()) as ToolAnswer);
    expect(text).toMatch(/^400 Bad Request: Invalid arguments for list_api_keys: `limit` /);
  });

  it('refuses an argument the tool does not have before any request', async () => {
    const res = await call(t.app, 'get_me', { bogus: 1 }, { authorization: `Bearer ${jwt}` });
    const answer = (await res.json()) as ToolAnswer;
    expect(answer.result?.isError).toBe(true);
    expect(toolText(answer)).toContain('`bogus` is not a known argument');
  });
});
