// The pages the service serves about itself: the error reference every problem's `type` points at, the
// favicon, and one version everywhere the service reports one.
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorStatus, type ErrorCode } from '../../src/errors.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { postMcp, rpc } from '../mcp/fixtures/mcp-post.ts';

const contract = yaml.load(readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8')) as {
  info: { version: string };
};
const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

let t: TestApp;
let page: string;
beforeAll(async () => {
  t = await createTestApp();
  page = await (await t.request('/docs/errors')).text();
});
afterAll(async () => t?.close());

/** The row of the reference whose id is the code, or undefined. */
function rowOf(code: string): string | undefined {
  return page.match(new RegExp(`<tr id="${code}">(.*?)</tr>`, 's'))?.[1];
}

describe('GET /docs/errors', () => {
  it('lists every error code with its status, what it means and what to do', async () => {
    const res = await t.request('/docs/errors');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    for (const code of Object.keys(errorStatus) as ErrorCode[]) {
      const cells = [...(rowOf(code) ?? '').matchAll(/<td>(.*?)<\/td>/gs)].map((m) => m[1]);
      expect(cells, code).toHaveLength(4);
      expect(cells[1], code).toBe(String(errorStatus[code]));
      expect(cells[2].length, code).toBeGreaterThan(10);
      expect(cells[3].length, code).toBeGreaterThan(10);
    }
  });

  it('is styled from this service only, under a policy that allows no script', async () => {
    const res = await t.request('/docs/errors');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'.*style-src 'self'/);
    expect(page).toContain('<link rel="stylesheet" href="/docs/errors.css">');
    expect((await t.request('/docs/errors.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });
});

describe('problem type', () => {
  it("points at the code's row of the error reference this service serves", async () => {
    const responses = [await t.request('/api/v1/users/me'), await t.request('/api/v1/no-such-thing')];
    for (const res of responses) {
      const problem = (await res.json()) as { type: string; code: string };
      expect(problem.type).toBe(`/docs/errors#${problem.code}`);
      // Resolved against the address the client used, as RFC 9457 resolves a relative type.
      const resolved = new URL(problem.type, 'http://127.0.0.1:3000/api/v1/users/me');
      expect(resolved.pathname).toBe('/docs/errors');
      expect(rowOf(resolved.hash.slice(1))).toBeDefined();
    }
  });
});

describe('GET /favicon.ico', () => {
  it('answers with an icon', async () => {
    const res = await t.request('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/x-icon');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]); // an ICO file's header
  });
});

describe('the service version', () => {
  it("is the contract's info.version in package.json and in the MCP serverInfo", async () => {
    expect(packageJson.version).toBe(contract.info.version);
    const { token } = await t.signup();
    const init = rpc('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    });
    const res = await postMcp(t.app, init, { authorization: `Bearer ${token}` });
    const body = (await res.json()) as { result: { serverInfo: { version: string } } };
    expect(body.result.serverInfo.version).toBe(contract.info.version);
  });
});
