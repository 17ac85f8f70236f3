// bulk_import_leads through the real app with jobs running: small imports answer at once with each
// row's result, larger ones become an operation; CSV as people export it (also as a text/csv body and
// from a URL, streamed); per-row errors; duplicates; suppressed addresses never re-activated; the
// Idempotency-Key replays instead of importing twice; workspaces kept apart.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
let owner: SignupResult;
let files: Server;
let filesUrl = '';
const big = [
  'email,first_name,company',
  ...Array.from({ length: 2_500 }, (_, i) => `bulk${i}@leads.example,Person ${i},"Co ${i % 7}, Inc."`),
  'bulk5@leads.example,Dup,Dup Co',
  'broken-address,X,Y',
].join('\r\n');

beforeAll(async () => {
  t = await createTestApp({ jobs: 'work', env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
  owner = await t.signup();
  files = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.end(req.url === '/leads.csv' ? big.replaceAll('bulk', 'url') : 'email\nx@y.example\n');
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => files?.close(() => resolve()));
  await t?.close();
});

const post = (body: unknown, init: { token?: string; headers?: Record<string, string>; query?: string } = {}) => {
  const path = `/api/v1/leads/imports${init.query ?? ''}`;
  const token = init.token ?? owner.token;
  if (typeof body === 'string')
    return t.request(path, { method: 'POST', token, body, headers: { 'content-type': 'text/csv', ...init.headers } });
  return t.request(path, { method: 'POST', token, json: body, headers: init.headers });
};

async function follow(res: Response): Promise<any> {
  expect(res.status).toBe(202);
  let op = (await res.json()) as { id: string; status: string };
  while (!['succeeded', 'failed', 'cancelled'].includes(op.status))
    op = (await (
      await t.request(`/api/v1/operations/${op.id}?wait_seconds=20`, { token: owner.token })
    ).json()) as typeof op;
  return op;
}

describe('bulk_import_leads', () => {
  it("imports up to 1,000 JSON rows at once, with each row's result and errors", async () => {
    const res = await post({
      rows: [
        { email: 'Ada@Example.COM', first_name: 'Ada' },
        { email: 'nope' },
        { email: 'ada@example.com' },
        { email: 'grace@example.com', nickname: 'G' },
      ],
      tags: ['launch'],
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.import).toMatchObject({
      status: 'completed_with_errors',
      source: 'rows',
      counts: { total: 4, created: 1, updated: 0, skipped_duplicate: 1, invalid: 2 },
    });
    expect(body.results.map((r: any) => [r.row, r.result])).toEqual([
      [1, 'created'],
      [2, 'invalid'],
      [3, 'skipped_duplicate'],
      [4, 'invalid'],
    ]);
    expect(body.results[1].errors[0]).toMatchObject({ code: 'email_invalid', column: 'email' });
    expect(body.results[3].errors[0]).toMatchObject({ code: 'unknown_field' });
    const leads = await (await t.request('/api/v1/leads?q=ada', { token: owner.token })).json();
    expect(leads.data).toHaveLength(1);
    expect(leads.data[0]).toMatchObject({
      email: 'ada@example.com',
      first_name: 'Ada',
      tags: ['launch'],
      status: 'active',
      source_import_id: body.import.id,
    });
    const events = await (await t.request('/api/v1/events?type=lead_import.completed', { token: owner.token })).json();
    expect(events.data.at(-1).data).toMatchObject({ id: body.import.id, counts: { created: 1 } });
  });

  it('accepts a text/csv body as people export it (BOM, semicolons, quoted commas)', async () => {
    const res = await post('\uFEFFE-mail;First Name;Company Name\r\nlin@csv.example;Lin;"Acme, Inc."\r\n');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.import.counts).toMatchObject({ total: 1, created: 1 });
    const lead = await (await t.request('/api/v1/leads?q=lin@csv', { token: owner.token })).json();
    expect(lead.data[0]).toMatchObject({ first_name: 'Lin', company: 'Acme, Inc.', tags: [] });
  });

  it('runs a larger CSV as an operation, with counts that add up and errors listed', async () => {
    const op = await follow(await post({ csv: big }));
    expect(op.status).toBe('succeeded');
    const imp = await (await t.request(`/api/v1/leads/imports/${op.resource.id}`, { token: owner.token })).json();
    expect(imp).toMatchObject({
      status: 'completed_with_errors',
      counts: { total: 2_502, created: 2_500, skipped_duplicate: 1, invalid: 1 },
    });
    const errors = await (
      await t.request(`/api/v1/leads/imports/${op.resource.id}/errors`, { token: owner.token })
    ).json();
    expect(errors.data).toEqual([
      expect.objectContaining({ row: 2_502, code: 'email_invalid', value: 'broken-address' }),
    ]);
    const [{ n }] = await t.db
      .sql`select count(*)::int as n from leads where workspace_id = ${owner.workspaceId} and email like 'bulk%'`;
    expect(n).toBe(2_500);
  });

  it('streams a CSV from a URL', async () => {
    const op = await follow(await post({ csv_url: `${filesUrl}/leads.csv`, on_conflict: 'update' }));
    expect(op.status).toBe('succeeded');
    const imp = await (await t.request(`/api/v1/leads/imports/${op.resource.id}`, { token: owner.token })).json();
    expect(imp.counts).toMatchObject({ total: 2_502, created: 2_500, invalid: 1 });
  });

  it('never re-activates an unsubscribed address', async () => {
    await post({ rows: [{ email: 'gone@example.com' }] });
    await t.db
      .sql`update leads set status = 'unsubscribed' where workspace_id = ${owner.workspaceId} and email = 'gone@example.com'`;
    const res = await post({ rows: [{ email: 'gone@example.com', first_name: 'Back' }], on_conflict: 'update' });
    expect((await res.json()).results[0].result).toBe('updated');
    const [row] = await t.db
      .sql`select status, first_name from leads where workspace_id = ${owner.workspaceId} and email = 'gone@example.com'`;
    expect(row).toEqual({ status: 'unsubscribed', first_name: 'Back' });
  });

  it('replays the first answer for a retried Idempotency-Key instead of importing twice', async () => {
    const headers = { 'Idempotency-Key': 'import-once-1' };
    const count = async () =>
      (await t.db.sql`select count(*)::int as n from lead_imports where workspace_id = ${owner.workspaceId}`)[0]
        .n as number;
    const before = await count();
    const first = await (await post({ rows: [{ email: 'once@example.com' }] }, { headers })).json();
    const again = await post({ rows: [{ email: 'once@example.com' }] }, { headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).import.id).toBe(first.import.id);
    expect(await count()).toBe(before + 1);
  });

  it('refuses a request with no source or two, and a header without an email column', async () => {
    expect((await post({ tags: ['x'] })).status).toBe(400);
    expect((await post({ rows: [], csv: 'email\n' })).status).toBe(400);
    const res = await post('name,company\nAda,Acme\n');
    expect(res.status).toBe(400);
  });

  it('keeps imports and leads to their workspace', async () => {
    const res = await post({ rows: [{ email: 'mine@example.com' }] });
    const body = await res.json();
    const stranger = await t.signup();
    expect((await t.request(`/api/v1/leads/imports/${body.import.id}`, { token: stranger.token })).status).toBe(404);
    expect((await t.request(`/api/v1/leads/imports/${body.import.id}/errors`, { token: stranger.token })).status).toBe(
      404,
    );
    const leads = await (await t.request('/api/v1/leads', { token: stranger.token })).json();
    expect(leads.data).toEqual([]);
    const mine = await (await t.request('/api/v1/leads?q=mine@', { token: owner.token })).json();
    expect((await t.request(`/api/v1/leads/${mine.data[0].id}`, { token: stranger.token })).status).toBe(404);
    expect((await t.request(`/api/v1/leads/${mine.data[0].id}`, { token: owner.token })).status).toBe(200);
  });
});
