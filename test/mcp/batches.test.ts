// JSON-RPC batches on POST /mcp of the real app: only the 2025-03-26 revision has them, and a batch whose
// ids repeat is refused before any of its messages runs, so no answer (and no minted secret) is lost.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { postMcp, rpc } from './fixtures/mcp-post.ts';

let t: TestApp;
let jwt: string;
beforeAll(async () => {
  t = await createTestApp();
  jwt = (await t.signup()).token;
});
afterAll(() => t.close());

const createKey = (id: number | string, name: string) =>
  rpc('tools/call', { name: 'create_api_key', arguments: { name } }, id);

async function keyNames(): Promise<string[]> {
  const res = await t.request('/api/v1/api-keys?limit=100', { token: jwt });
  return ((await res.json()) as { data: { name: string }[] }).data.map((k) => k.name);
}

describe('POST /mcp batches', () => {
  it('refuses a batch with a repeated id as an invalid request before running any of it', async () => {
    const res = await postMcp(t.app, [createKey(7, 'twin a'), createKey(7, 'twin b')], {
      authorization: `Bearer ${jwt}`,
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { id: unknown; error: { code: number; message: string } };
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(body.error.message).toMatch(/duplicate id 7/);
    expect(await keyNames()).not.toContain('twin a');
    expect(await keyNames()).not.toContain('twin b');
  });

  it('tells the number 1 and the string "1" apart, as JSON-RPC does', async () => {
    const res = await postMcp(t.app, [rpc('ping', {}, 1), rpc('ping', {}, '1')], { authorization: `Bearer ${jwt}` });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: unknown }[]).map((m) => m.id).sort()).toEqual([1, '1']);
  });

  it.each([
    ['without MCP-Protocol-Version (2025-03-26 assumed)', {}],
    ['on 2025-03-26', { 'mcp-protocol-version': '2025-03-26' }],
  ])('serves a batch %s', async (_name, headers) => {
    const res = await postMcp(t.app, [createKey(1, 'batch one'), createKey(2, 'batch two')], {
      ...headers,
      authorization: `Bearer ${jwt}`,
    });
    expect(res.status).toBe(200);
    const answers = (await res.json()) as { id: number; result: { structuredContent: { key: string } } }[];
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2]);
    for (const answer of answers) expect(answer.result.structuredContent.key).toMatch(/^svc_/);
  });

  it.each(['2025-06-18', '2025-11-25', '2026-07-28'])(
    'refuses a batch on %s, which has no batching',
    async (version) => {
      const res = await postMcp(t.app, [createKey(1, `batch ${version}`), rpc('ping', {}, 2)], {
        'mcp-protocol-version': version,
        authorization: `Bearer ${jwt}`,
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        id: null,
        error: { code: -32600, message: expect.stringContaining('2025-03-26') },
      });
      expect(await keyNames()).not.toContain(`batch ${version}`);
    },
  );
});
