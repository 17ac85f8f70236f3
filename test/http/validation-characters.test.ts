// Text the database cannot store (U+0000, lone UTF-16 surrogates) and bodies of the wrong JSON type are
// refused by the generated validation with a 400 naming the field, on every kind of input and over MCP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await t.signup()).token;
});
afterAll(async () => t?.close());

interface FieldError {
  pointer?: string;
  field?: string;
  code: string;
}

async function fieldErrors(res: Response): Promise<FieldError[]> {
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = (await res.json()) as { code: string; errors: FieldError[] };
  expect(body.code).toBe('validation_failed');
  return body.errors;
}

const signupBody = (overrides: Record<string, string>) => ({
  email: `nul.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`,
  password: 'correct horse battery',
  name: 'Name',
  workspace_name: 'Workspace',
  ...overrides,
});

describe('text the database cannot store', () => {
  it.each([
    ['name', { name: 'a\u0000b' }],
    ['workspace_name', { workspace_name: '\u0000' }],
    ['password', { password: 'correct horse\u0000battery' }],
    ['name', { name: 'lone \ud800 surrogate' }],
  ])('refuses signup with such a character in %s', async (field, overrides) => {
    const res = await t.request('/api/v1/users/signup', { method: 'POST', json: signupBody(overrides) });
    const errors = await fieldErrors(res);
    expect(errors).toContainEqual(expect.objectContaining({ pointer: `/${field}`, code: 'invalid_character' }));
  });

  it('refuses a NUL in an API key name', async () => {
    const res = await t.request('/api/v1/api-keys', { method: 'POST', token, json: { name: 'a\u0000b' } });
    expect(await fieldErrors(res)).toContainEqual(
      expect.objectContaining({ pointer: '/name', code: 'invalid_character' }),
    );
  });

  it('refuses a NUL in a login email and password', async () => {
    const res = await t.request('/api/v1/users/login', {
      method: 'POST',
      json: { email: 'a\u0000@example.com', password: '\u0000' },
    });
    const errors = await fieldErrors(res);
    expect(errors).toContainEqual(expect.objectContaining({ pointer: '/password', code: 'invalid_character' }));
    expect(errors.map((e) => e.pointer)).toContain('/email');
  });

  it('refuses a NUL in a query parameter', async () => {
    const res = await t.request('/api/v1/api-keys?cursor=abc%00def', { token });
    expect(await fieldErrors(res)).toContainEqual(
      expect.objectContaining({ field: 'query.cursor', code: 'invalid_character' }),
    );
  });

  it('refuses a NUL in a path parameter', async () => {
    const res = await t.request('/api/v1/api-keys/key_%00', { method: 'DELETE', token });
    expect((await fieldErrors(res)).map((e) => e.field)).toContain('path.key_id');
  });

  it('keeps accepting other control characters and non-BMP text', async () => {
    const res = await t.request('/api/v1/api-keys', { method: 'POST', token, json: { name: 'tab\there 🦊' } });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { name: string }).name).toBe('tab\there 🦊');
  });
});

describe('bodies of the wrong JSON type', () => {
  it.each([
    ['an array', '[]'],
    ['a string', '"x"'],
    ['null', 'null'],
    ['a number', '1'],
    ['true', 'true'],
  ])('refuses %s where an object is expected', async (_, body) => {
    const res = await t.request('/api/v1/api-keys', {
      method: 'POST',
      token,
      body,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(400);
  });

  it('refuses an array where a string is expected, naming the field', async () => {
    const res = await t.request('/api/v1/users/signup', { method: 'POST', json: { ...signupBody({}), name: ['a'] } });
    expect((await fieldErrors(res)).map((e) => e.pointer)).toContain('/name');
  });
});

describe('long text', () => {
  it('refuses an over-long name with 400 and a long password with a 4xx', async () => {
    const name = await t.request('/api/v1/api-keys', { method: 'POST', token, json: { name: 'x'.repeat(5000) } });
    expect((await fieldErrors(name)).map((e) => e.pointer)).toContain('/name');
    const login = await t.request('/api/v1/users/login', {
      method: 'POST',
      json: { email: 'long@example.com', password: 'x'.repeat(50_000) },
    });
    expect(login.status).toBeGreaterThanOrEqual(400);
    expect(login.status).toBeLessThan(500);
  });
});

describe('over MCP', () => {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  };

  it('answers a NUL in a tool argument with an isError result naming the field', async () => {
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'create_api_key', arguments: { name: 'a\u0000b' } },
    };
    const res = await t.request('/mcp', {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as { result: { isError?: boolean; content: Array<{ text: string }> } };
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^400 /);
    expect(result.content[0].text).toContain('body/name');
  });
});
