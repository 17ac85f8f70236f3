// Text the database cannot store (U+0000, lone UTF-16 surrogates) in values the contract leaves free-form
// (custom fields, agent inputs) and in keys is refused with a 400 naming the field, by the one check every
// operation's validation runs; a lead import's rows are left to the import, which reports them one by one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await t.signup()).token;
});
afterAll(async () => t?.close());

interface Problem {
  status: number;
  code: string;
  detail: string;
  errors?: Array<{ pointer?: string; field?: string; code: string }>;
}

async function refused(res: Response): Promise<Problem> {
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const problem = (await res.json()) as Problem;
  expect(problem.code).toBe('validation_failed');
  return problem;
}

/** A JSON body as text, so an escape such as \u0000 or a lone \ud800 arrives exactly as written. */
function post(path: string, body: string, method = 'POST') {
  return t.request(path, { method, token, body, headers: { 'content-type': 'application/json' } });
}

const BAD: Array<[string, string]> = [
  ['NUL', '\\u0000'],
  ['a lone surrogate', '\\ud800'],
];

describe('create_lead and update_lead', () => {
  it.each(BAD)('refuses %s in a custom field value, naming it', async (_, escape) => {
    const res = await post(
      '/api/v1/leads',
      `{"email":"plan.${Date.now()}@example.com","custom_fields":{"plan":"pro${escape}"}}`,
    );
    expect((await refused(res)).errors).toContainEqual(
      expect.objectContaining({ pointer: '/custom_fields/plan', code: 'invalid_character' }),
    );
  });

  it.each(BAD)('refuses %s in a custom field key', async (_, escape) => {
    const res = await post(
      '/api/v1/leads',
      `{"email":"key.${Date.now()}@example.com","custom_fields":{"p${escape}":"x"}}`,
    );
    const errors = (await refused(res)).errors ?? [];
    expect(errors.find((e) => e.code === 'invalid_character')?.pointer).toMatch(/^\/custom_fields\/p/);
  });

  it.each(BAD)('refuses %s in a nested value and key on update', async (_, escape) => {
    const created = await t.request('/api/v1/leads', {
      method: 'POST',
      token,
      json: { email: `upd.${Date.now()}.${escape.length}@example.com` },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const value = await post(`/api/v1/leads/${id}`, `{"custom_fields":{"plan":"a${escape}b"}}`, 'PATCH');
    expect((await refused(value)).errors).toContainEqual(
      expect.objectContaining({ pointer: '/custom_fields/plan', code: 'invalid_character' }),
    );
    const key = await post(`/api/v1/leads/${id}`, `{"custom_fields":{"deep":{"k${escape}":["x"]}}}`, 'PATCH');
    expect(
      (await refused(key)).errors?.some(
        (e) => e.code === 'invalid_character' && e.pointer?.startsWith('/custom_fields/deep/k'),
      ),
    ).toBe(true);
  });

  it('still stores other control characters and non-BMP text in custom fields', async () => {
    const res = await t.request('/api/v1/leads', {
      method: 'POST',
      token,
      json: { email: `ok.${Date.now()}@example.com`, custom_fields: { plan: 'tab\there 🦊' } },
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { custom_fields: Record<string, string> }).custom_fields.plan).toBe('tab\there 🦊');
  });
});

describe('run_agent', () => {
  it.each([['goal'], ['audience']])('refuses NUL in the input %s, naming it', async (field) => {
    const input = {
      goal: 'Sell reusable rocket launches',
      audience: 'small satellite startups',
      steps: 3,
      [field]: 'a\u0000b',
    };
    const res = await t.request('/api/v1/agents/email-sequence-generator/runs', {
      method: 'POST',
      token,
      json: { input },
    });
    expect((await refused(res)).errors).toContainEqual(
      expect.objectContaining({ pointer: `/input/${field}`, code: 'invalid_character' }),
    );
  });
});

describe('parameters', () => {
  it('refuses NUL in a list filter, naming it', async () => {
    const res = await t.request('/api/v1/leads?tag=a%00b', { token });
    expect((await refused(res)).errors).toContainEqual(
      expect.objectContaining({ field: 'query.tag', code: 'invalid_character' }),
    );
  });

  it('refuses a NUL in a path parameter before the handler looks it up', async () => {
    const res = await t.request('/api/v1/leads/lead_%00', { token });
    expect((await refused(res)).errors).toContainEqual(
      expect.objectContaining({ field: 'path.lead_id', code: 'invalid_character' }),
    );
  });
});

describe('bulk_import_leads', () => {
  // The import reports such a row invalid (invalid_character) and imports the others: the boundary lets it through.
  it('hands rows with NUL to the import instead of refusing the request', async () => {
    const res = await post(
      '/api/v1/leads/imports',
      `{"rows":[{"email":"row.${Date.now()}@example.com","first_name":"a\\u0000"},{"email":"fine.${Date.now()}@example.com"}]}`,
    );
    expect(res.status).not.toBe(400);
  });

  it('hands inline CSV with NUL to the import, as JSON and as text/csv', async () => {
    const csv = `email,first_name\ncsv.${Date.now()}@example.com,a\u0000\nfine.csv.${Date.now()}@example.com,b\n`;
    const json = await t.request('/api/v1/leads/imports', { method: 'POST', token, json: { csv } });
    expect(json.status).not.toBe(400);
    const text = await t.request('/api/v1/leads/imports', {
      method: 'POST',
      token,
      body: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(text.status).not.toBe(400);
  });

  it('still refuses NUL in the parts of an import request the import does not report', async () => {
    const res = await t.request('/api/v1/leads/imports', {
      method: 'POST',
      token,
      json: { rows: [{ email: 'a@example.com' }], tags: ['a\u0000'], column_map: { 'e\u0000': 'email' } },
    });
    const errors = (await refused(res)).errors ?? [];
    expect(errors).toContainEqual(expect.objectContaining({ pointer: '/tags/0', code: 'invalid_character' }));
    expect(errors.some((e) => e.code === 'invalid_character' && e.pointer?.startsWith('/column_map/e'))).toBe(true);
  });
});

describe('over MCP', () => {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  };

  it('answers NUL in a custom field with an isError result naming the field', async () => {
    const args = { email: `mcp.${Date.now()}@example.com`, custom_fields: { plan: 'a\u0000b' } };
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_lead', arguments: args } };
    const res = await t.request('/mcp', {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as { result: { isError?: boolean; content: Array<{ text: string }> } };
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^400 /);
    expect(result.content[0].text).toContain('custom_fields/plan');
    expect(result.content[0].text).toContain('invalid_character');
  });

  it('answers NUL in an argument sent as a header with an isError result naming the argument, not an unreachable API', async () => {
    const args = { email: `mcp.h.${Date.now()}@example.com`, idempotency_key: 'a\u0000b' };
    const body = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_lead', arguments: args } };
    const res = await t.request('/mcp', {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as { result: { isError?: boolean; content: Array<{ text: string }> } };
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^Invalid arguments for create_lead: `idempotency_key`/);
    expect(result.content[0].text).not.toContain('could not be reached');
  });
});
