// Single leads through the real app: create (409 on a taken address), update (status untouched),
// unsubscribe (suppressed for good), delete (erased; only the address's hash stays, so an import of
// it comes back suppressed), list filters, and workspace isolation. Also over MCP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTestApp, listen, type SignupResult, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
let owner: SignupResult;
beforeAll(async () => {
  t = await createTestApp({ jobs: 'work' });
  owner = await t.signup();
});
afterAll(async () => t?.close());

const call = async (method: string, path: string, json?: unknown, token = owner.token) => {
  const res = await t.request(path, { method, token, ...(json === undefined ? {} : { json }) });
  return { status: res.status, body: await res.json() };
};

describe('single leads', () => {
  it('creates a lead with normalised fields, and refuses the same address again with 409', async () => {
    const created = await call('POST', '/api/v1/leads', {
      email: ' Sam@Example.org ',
      first_name: 'Sam',
      website: 'sam.example.org',
      tags: ['vip'],
      custom_fields: { plan: 'pro' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      email: 'sam@example.org',
      website: 'https://sam.example.org/',
      status: 'active',
      tags: ['vip'],
      custom_fields: { plan: 'pro' },
    });
    expect((await call('POST', '/api/v1/leads', { email: 'sam@example.org' })).status).toBe(409);
    const bad = await call('POST', '/api/v1/leads', { email: 'not an address', timezone: 'Mars/Olympus' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(['email', 'timezone']);
  });

  it('updates the given fields only, and never the status', async () => {
    const { body: lead } = await call('POST', '/api/v1/leads', {
      email: 'upd@example.org',
      first_name: 'Old',
      company: 'Keep',
    });
    const updated = await call('PATCH', `/api/v1/leads/${lead.id}`, { first_name: 'New', title: null });
    expect(updated.body).toMatchObject({ first_name: 'New', company: 'Keep', status: 'active' });
    expect((await call('PATCH', `/api/v1/leads/${lead.id}`, { status: 'active' })).status).toBe(400);
  });

  it('unsubscribes for good: no import re-activates the address', async () => {
    const { body: lead } = await call('POST', '/api/v1/leads', { email: 'unsub@example.org' });
    const unsubscribed = await call('POST', `/api/v1/leads/${lead.id}/unsubscribe`);
    expect(unsubscribed.body.status).toBe('unsubscribed');
    await call('POST', '/api/v1/leads/imports', {
      rows: [{ email: 'unsub@example.org', first_name: 'Again' }],
      on_conflict: 'update',
    });
    expect((await call('GET', `/api/v1/leads/${lead.id}`)).body.status).toBe('unsubscribed');
  });

  it('deletes by erasing the person, keeping only the address hash: a later import comes back suppressed', async () => {
    const { body: lead } = await call('POST', '/api/v1/leads', { email: 'erase@example.org', first_name: 'Erase' });
    expect((await call('DELETE', `/api/v1/leads/${lead.id}`)).body).toEqual({ id: lead.id, deleted: true });
    expect((await call('GET', `/api/v1/leads/${lead.id}`)).status).toBe(404);
    const kept = await t.db.sql`select reason from lead_suppressions where workspace_id = ${owner.workspaceId}`;
    expect(kept.map((r) => r.reason)).toContain('deleted');
    expect(
      JSON.stringify(await t.db.sql`select * from lead_suppressions where workspace_id = ${owner.workspaceId}`),
    ).not.toContain('erase@example.org');
    const events = await call('GET', '/api/v1/events?type=lead.deleted');
    expect(JSON.stringify(events.body)).not.toContain('erase@example.org');
    const back = await call('POST', '/api/v1/leads/imports', { rows: [{ email: 'erase@example.org' }] });
    expect(back.body.results[0].result).toBe('created');
    const relisted = await call('GET', '/api/v1/leads?q=erase');
    expect(relisted.body.data[0].status).toBe('do_not_contact');
  });

  it('filters the list by status and tag', async () => {
    const other = await t.signup();
    await call('POST', '/api/v1/leads', { email: 'a1@f.example', tags: ['alpha'] }, other.token);
    const { body: b } = await call('POST', '/api/v1/leads', { email: 'b1@f.example', tags: ['beta'] }, other.token);
    await call('POST', `/api/v1/leads/${b.id}/unsubscribe`, undefined, other.token);
    expect(
      (await call('GET', '/api/v1/leads?tag=alpha', undefined, other.token)).body.data.map((l: any) => l.email),
    ).toEqual(['a1@f.example']);
    expect(
      (await call('GET', '/api/v1/leads?status=unsubscribed', undefined, other.token)).body.data.map(
        (l: any) => l.email,
      ),
    ).toEqual(['b1@f.example']);
    expect(
      (await call('GET', '/api/v1/leads?status=unsubscribed,active', undefined, other.token)).body.data.map(
        (l: any) => l.email,
      ),
    ).toEqual(['b1@f.example', 'a1@f.example']);
    const bad = await call('GET', '/api/v1/leads?status=active,gone', undefined, other.token);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      {
        field: 'query.status',
        code: 'invalid_value',
        message: 'has "gone", which is not one of active, unsubscribed, bounced, do_not_contact',
      },
    ]);
    expect((await call('GET', `/api/v1/leads/${b.id}`)).status).toBe(404);
    expect((await call('PATCH', `/api/v1/leads/${b.id}`, { first_name: 'x' })).status).toBe(404);
    expect((await call('DELETE', `/api/v1/leads/${b.id}`)).status).toBe(404);
  });

  it('imports and reads leads over MCP', async () => {
    const server = await listen(t.app);
    const client = new Client({ name: 'leads-agent', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${owner.token}` } },
        }),
      );
      const result = (await client.callTool({
        name: 'bulk_import_leads',
        arguments: { csv: 'email,first_name\nmcp1@example.org,One\nmcp2@example.org,Two\n', tags: ['mcp'] },
      })) as any;
      expect(result.isError).toBeFalsy();
      // Two success shapes (200 with the import, 202 with an operation): the tool promises no outputSchema, the JSON is the text.
      expect(JSON.parse(result.content[0].text).import.counts).toMatchObject({ total: 2, created: 2 });
      const rows = ['email', ...Array.from({ length: 1_200 }, (_, i) => `mcpbulk${i}@example.org`)].join('\n');
      const started = JSON.parse(
        ((await client.callTool({ name: 'bulk_import_leads', arguments: { csv: rows } })) as any).content[0].text,
      );
      expect(started.id).toMatch(/^op_/);
      let op = started;
      while (!['succeeded', 'failed', 'cancelled'].includes(op.status))
        op = (
          (await client.callTool({
            name: 'get_operation',
            arguments: { operation_id: op.id, wait_seconds: 20 },
          })) as any
        ).structuredContent;
      expect(op.status).toBe('succeeded');
      const imported = (
        (await client.callTool({ name: 'get_lead_import', arguments: { import_id: op.resource.id } })) as any
      ).structuredContent;
      expect(imported.counts).toMatchObject({ total: 1_200, created: 1_200 });
      const listed = (await client.callTool({ name: 'list_leads', arguments: { tag: 'mcp' } })) as any;
      expect(listed.structuredContent.data).toHaveLength(2);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
