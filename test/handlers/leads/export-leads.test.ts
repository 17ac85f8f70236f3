// export_leads through the real app with jobs running: a snapshot of the filtered leads written in
// parts and downloaded as one CSV (BOM, header with custom-field columns, formula cells defused),
// every lead once across parts; not downloadable before it is ready or after it expires; workspaces
// kept apart; the same over MCP, where the download comes back as text.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendExportPart,
  beginExport,
  exportLeadsPage,
  findExport,
} from '../../../src/handlers/leads/lead-exports-data.ts';
import { csvLine, leadExportHeader, leadExportRow } from '../../../src/handlers/leads/export-csv.ts';
import { EXPORT_PART_ROWS, sweepLeadExportsJob } from '../../../src/handlers/leads/export.ts';
import { createTestApp, listen, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { createTestDatabase } from '../../helpers/db.ts';

let t: TestApp;
let owner: SignupResult;

beforeAll(async () => {
  t = await createTestApp({ jobs: 'work' });
  owner = await t.signup();
});
afterAll(async () => {
  await t?.close();
});

async function json(
  path: string,
  init: { method?: string; json?: unknown; token?: string } = {},
): Promise<{ status: number; body: any }> {
  const res = await t.request(path, {
    method: init.method ?? 'GET',
    json: init.json,
    token: init.token ?? owner.token,
  });
  return {
    status: res.status,
    body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text(),
  };
}

/** Starts an export and waits for its operation; returns the finished operation. */
async function exportAndWait(filters: unknown, token = owner.token): Promise<any> {
  const started = await json('/api/v1/leads/exports', { method: 'POST', json: filters, token });
  expect(started.status).toBe(202);
  let op = started.body;
  while (!['succeeded', 'failed', 'cancelled'].includes(op.status))
    op = (await json(`/api/v1/operations/${op.id}?wait_seconds=20`, { token })).body;
  return op;
}

const csvRows = (text: string): string[][] => parse(text, { bom: true, relax_column_count: false });

describe('export_leads', () => {
  it('exports the filtered leads as a CSV whose formula cells are defused', async () => {
    const imported = await json('/api/v1/leads/imports', {
      method: 'POST',
      json: {
        rows: [
          {
            email: 'formula@x.example',
            first_name: '=HYPERLINK("http://evil.example","click")',
            company: '+cmd|calc',
            custom_fields: { plan: '@SUM(A1)', seats: 5 },
          },
          {
            email: 'plain@x.example',
            first_name: 'Plain',
            last_name: 'O"Brien, Jr',
            title: 'Line one\nline two',
            custom_fields: { region: 'EU' },
          },
          { email: 'other@x.example', first_name: 'Other' },
        ],
        tags: ['exp'],
      },
    });
    expect(imported.status).toBe(200);
    await json('/api/v1/leads', { method: 'POST', json: { email: 'untagged@x.example' } });

    const op = await exportAndWait({ tag: 'exp' });
    expect(op).toMatchObject({ status: 'succeeded', type: 'lead_export', resource: { type: 'lead_export' } });
    const exp = (await json(`/api/v1/leads/exports/${op.resource.id}`)).body;
    expect(exp).toMatchObject({
      status: 'ready',
      row_count: 3,
      filters: { tag: 'exp' },
      download_url: `/api/v1/leads/exports/${exp.id}/download`,
      error_message: null,
    });
    expect(Date.parse(exp.expires_at) - Date.parse(exp.finished_at)).toBe(7 * 24 * 3600 * 1000);

    const res = await t.request(exp.download_url, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="leads-${exp.id}.csv"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes.length).toBe(exp.size_bytes);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith('\ufeffid,email,')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, ...rows] = csvRows(text);
    expect(header).toEqual([
      'id',
      'email',
      'first_name',
      'last_name',
      'company',
      'title',
      'phone',
      'website',
      'linkedin_url',
      'timezone',
      'tags',
      'status',
      'stage',
      'created_at',
      'updated_at',
      'custom.plan',
      'custom.region',
      'custom.seats',
    ]);
    const byEmail = new Map(rows.map((r) => [r[1], Object.fromEntries(header.map((h, i) => [h, r[i]]))]));
    expect([...byEmail.keys()].sort()).toEqual(['formula@x.example', 'other@x.example', 'plain@x.example']);
    expect(byEmail.get('formula@x.example')).toMatchObject({
      first_name: `'=HYPERLINK("http://evil.example","click")`,
      company: "'+cmd|calc",
      'custom.plan': "'@SUM(A1)",
      'custom.seats': '5',
      tags: 'exp',
      status: 'active',
      stage: 'new',
    });
    expect(byEmail.get('plain@x.example')).toMatchObject({
      last_name: 'O"Brien, Jr',
      title: 'Line one\nline two',
      'custom.region': 'EU',
      'custom.plan': '',
    });
  });

  it('writes a large export in parts and downloads every lead once, oldest first', async () => {
    const other = await t.signup();
    const n = EXPORT_PART_ROWS * 2 + 321;
    const csv = ['email,first_name', ...Array.from({ length: n }, (_, i) => `p${i}@parts.example,P${i}`)].join('\n');
    const imported = await t.request('/api/v1/leads/imports', { method: 'POST', token: other.token, json: { csv } });
    let op = await imported.json();
    while (!['succeeded', 'failed', 'cancelled'].includes(op.status))
      op = (await json(`/api/v1/operations/${op.id}?wait_seconds=20`, { token: other.token })).body;
    expect(op.status).toBe('succeeded');

    const done = await exportAndWait({}, other.token);
    expect(done).toMatchObject({ status: 'succeeded', progress: { done: n, total: n } });
    const [{ parts }] = await t.db.sql`select parts from lead_exports where id = ${done.resource.id}`;
    expect(parts).toBe(1 + Math.ceil(n / EXPORT_PART_ROWS));
    const text = await (
      await t.request(`/api/v1/leads/exports/${done.resource.id}/download`, { token: other.token })
    ).text();
    const [, ...rows] = csvRows(text);
    expect(rows).toHaveLength(n);
    expect(new Set(rows.map((r) => r[0])).size).toBe(n);
    const times = rows.map((r) => Date.parse(r[12]));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('exports nothing but the header when no lead matches', async () => {
    const op = await exportAndWait({ q: 'no-such-lead-anywhere', status: ['bounced'] });
    const exp = (await json(`/api/v1/leads/exports/${op.resource.id}`)).body;
    expect(exp).toMatchObject({
      status: 'ready',
      row_count: 0,
      filters: { q: 'no-such-lead-anywhere', status: ['bounced'] },
    });
    const text = await (await t.request(exp.download_url, { token: owner.token })).text();
    expect(csvRows(text)).toHaveLength(1);
  });

  it('refuses a download from another workspace, and bad filters', async () => {
    const op = await exportAndWait({});
    const stranger = await t.signup();
    expect((await json(`/api/v1/leads/exports/${op.resource.id}`, { token: stranger.token })).status).toBe(404);
    const res = await json(`/api/v1/leads/exports/${op.resource.id}/download`, { token: stranger.token });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    const bad = await json('/api/v1/leads/exports', { method: 'POST', json: { status: ['gone'], nope: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
  });

  it('answers 410 once an export has expired and its parts are swept', async () => {
    const op = await exportAndWait({});
    const id = op.resource.id;
    await t.db.sql`update lead_exports set expires_at = now() - interval '1 minute' where id = ${id}`;
    await sweepLeadExportsJob.handler({}, undefined as never, t.deps);
    const res = await json(`/api/v1/leads/exports/${id}/download`);
    expect(res.status).toBe(410);
    expect(res.body.code).toBe('export_expired');
    expect((await json(`/api/v1/leads/exports/${id}`)).body).toMatchObject({ status: 'expired', download_url: null });
    const [{ n }] = await t.db.sql`select count(*)::int as n from lead_export_parts where export_id = ${id}`;
    expect(n).toBe(0);
  });

  it('exports and downloads over MCP, the CSV as text', async () => {
    const server = await listen(t.app);
    const client = new Client({ name: 'export-agent', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${owner.token}` } },
        }),
      );
      const started = (await client.callTool({ name: 'export_leads', arguments: { tag: 'exp' } })) as any;
      expect(started.isError).toBeFalsy();
      let op = started.structuredContent ?? JSON.parse(started.content[0].text);
      while (!['succeeded', 'failed', 'cancelled'].includes(op.status))
        op = (
          (await client.callTool({
            name: 'get_operation',
            arguments: { operation_id: op.id, wait_seconds: 20 },
          })) as any
        ).structuredContent;
      const downloaded = (await client.callTool({
        name: 'download_lead_export',
        arguments: { export_id: op.resource.id },
      })) as any;
      expect(downloaded.isError).toBeFalsy();
      const text: string = downloaded.content[0].text;
      expect(
        csvRows(text)
          .map((r) => r[1])
          .slice(1)
          .sort(),
      ).toEqual(['formula@x.example', 'other@x.example', 'plain@x.example']);
      const missing = (await client.callTool({
        name: 'download_lead_export',
        arguments: { export_id: 'lexp_00000000000000000000000000' },
      })) as any;
      expect(missing.isError).toBe(true);
      expect(missing.content[0].text).toMatch(/^404 /);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('export_leads before its job runs', () => {
  it('answers 409 export_not_ready while the export is queued', async () => {
    const queued = await createTestApp({ jobs: 'enqueue' });
    try {
      const user = await queued.signup();
      const started = await queued.request('/api/v1/leads/exports', { method: 'POST', token: user.token, json: {} });
      expect(started.status).toBe(202);
      expect(started.headers.get('location')).toMatch(/^\/api\/v1\/operations\/op_/);
      const op = await started.json();
      const exp = await (await queued.request(`/api/v1/leads/exports/${op.resource.id}`, { token: user.token })).json();
      expect(exp).toMatchObject({
        status: 'queued',
        row_count: 0,
        download_url: null,
        finished_at: null,
        expires_at: null,
      });
      const res = await queued.request(`/api/v1/leads/exports/${op.resource.id}/download`, { token: user.token });
      expect(res.status).toBe(409);
      expect((await res.json()).code).toBe('export_not_ready');
    } finally {
      await queued.close();
    }
  });
});

describe('a lead export whose first run died after a part', () => {
  it('resumes after the last committed part and writes every lead once', async () => {
    const db = await createTestDatabase();
    const jobsSchema = `jobs_exp_${Date.now().toString(36)}`;
    let worker: TestApp | undefined;
    try {
      // The service that took the request has no worker: the export stays queued.
      const front = await createTestApp({ db, jobs: 'enqueue', jobsSchema });
      const user = await front.signup();
      const n = EXPORT_PART_ROWS + 700;
      for (let from = 0; from < n; from += 1_000) {
        const rows = Array.from({ length: Math.min(1_000, n - from) }, (_, i) => ({
          email: `r${from + i}@resume.example`,
          custom_fields: { k: from + i },
        }));
        expect(
          (await front.request('/api/v1/leads/imports', { method: 'POST', token: user.token, json: { rows } })).status,
        ).toBe(200);
      }
      const op = await (
        await front.request('/api/v1/leads/exports', { method: 'POST', token: user.token, json: {} })
      ).json();
      const id = op.resource.id as string;
      // What a first run commits before its worker dies: the start, the header, the first part and its checkpoint.
      const started = await beginExport(db.sql, user.workspaceId, id, {
        snapshotAt: new Date(),
        customFieldKeys: ['k'],
        now: new Date(),
      });
      await appendExportPart(db.sql, user.workspaceId, id, {
        content: `\ufeff${csvLine(leadExportHeader(['k']))}`,
        bytes: 0,
        rows: 0,
        now: new Date(),
      });
      const first = await exportLeadsPage(
        db.sql,
        user.workspaceId,
        started.filters,
        started.snapshot_at!,
        undefined,
        EXPORT_PART_ROWS,
      );
      const firstPart = first.map((l) => csvLine(leadExportRow(l, ['k']))).join('');
      const last = first[first.length - 1];
      await appendExportPart(db.sql, user.workspaceId, id, {
        content: firstPart,
        bytes: 0,
        rows: first.length,
        last: { cursor_at: last.cursor_at, id: last.id },
        now: new Date(),
      });
      await front.close();

      worker = await createTestApp({ db, jobs: 'work', jobsSchema });
      let done = op;
      while (!['succeeded', 'failed', 'cancelled'].includes(done.status))
        done = await (
          await worker.request(`/api/v1/operations/${op.id}?wait_seconds=20`, { token: user.token })
        ).json();
      expect(done.status).toBe('succeeded');
      expect(await findExport(db.sql, user.workspaceId, id)).toMatchObject({ status: 'ready', row_count: n, parts: 3 });
      const [{ content }] = await db.sql`select content from lead_export_parts where export_id = ${id} and part = 1`;
      expect(content).toBe(firstPart);
      const [header, ...rows] = csvRows(
        await (await worker.request(`/api/v1/leads/exports/${id}/download`, { token: user.token })).text(),
      );
      expect(header.at(-1)).toBe('custom.k');
      expect(rows).toHaveLength(n);
      expect(new Set(rows.map((r) => r[1])).size).toBe(n);
    } finally {
      await worker?.close();
      await db.sql.unsafe(`drop schema if exists ${jobsSchema} cascade`).catch(() => {});
      await db.close();
    }
  });
});
