// bulk_import_leads with values PostgreSQL cannot store (issue 26): a NUL or an unpaired surrogate in
// any row value is that row's `invalid_character` error naming the field, and the other rows import,
// inline or as a job (which on PostgreSQL writes by COPY); imports holding such rows in one workspace
// do not hold up another's. The options that apply to every row are refused whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/handlers/actor.ts';
import { bulkImportLeads } from '../../../src/handlers/leads/bulk-import-leads.ts';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';

const terminal = ['succeeded', 'failed', 'cancelled'];
let t: TestApp;
let owner: SignupResult;
let other: SignupResult;

beforeAll(async () => {
  t = await createTestApp({ jobs: 'work' });
  owner = await t.signup();
  other = await t.signup();
});
afterAll(async () => t?.close());

const post = (who: SignupResult, body: unknown) =>
  t.request('/api/v1/leads/imports', { method: 'POST', token: who.token, json: body });
const getJson = async (who: SignupResult, path: string): Promise<any> =>
  (await t.request(path, { token: who.token })).json();

async function follow(who: SignupResult, res: Response): Promise<any> {
  expect(res.status).toBe(202);
  let op = (await res.json()) as { id: string; status: string };
  while (!terminal.includes(op.status)) op = await getJson(who, `/api/v1/operations/${op.id}?wait_seconds=20`);
  return op;
}

/** 1,001 rows (one more than is imported in the request, so a job) with a NUL in one first_name. */
const rowsWithNul = (domain: string) =>
  Array.from({ length: 1_001 }, (_, i) => ({
    email: `p${i}@${domain}`,
    first_name: i === 500 ? 'Bad\u0000Name' : `P${i}`,
  }));

describe('bulk_import_leads with characters that cannot be stored', () => {
  it('reports each such row as invalid_character naming the field and imports the others (in the request)', async () => {
    const rows = [
      { email: 'ok1@chars.example', first_name: 'Fine' },
      { email: 'nul@chars.example', first_name: 'A\u0000B' },
      { email: 'lone\uD800@chars.example' },
      { email: 'tag@chars.example', tags: ['good', 'b\u0000d'] },
      { email: 'custom@chars.example', custom_fields: { plan: 'x\uDC00y' } },
      { email: 'ok2@chars.example', first_name: 'Zoë 🎉' },
    ];
    const res = await post(owner, { rows });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.import).toMatchObject({
      status: 'completed_with_errors',
      counts: { total: 6, created: 2, invalid: 4 },
    });
    expect(body.results.map((r: any) => [r.row, r.result, r.errors?.[0]?.code, r.errors?.[0]?.column])).toEqual([
      [1, 'created', undefined, undefined],
      [2, 'invalid', 'invalid_character', 'first_name'],
      [3, 'invalid', 'invalid_character', 'email'],
      [4, 'invalid', 'invalid_character', 'tags'],
      [5, 'invalid', 'invalid_character', 'custom_fields.plan'],
      [6, 'created', undefined, undefined],
    ]);
    expect(body.results[1].errors[0].value).toBe('A\uFFFDB');
  });

  it('reports the row and imports the rest when the import runs as a job', async () => {
    const op = await follow(owner, await post(owner, { rows: rowsWithNul('job-nul.example') }));
    expect(op.status).toBe('succeeded');
    expect(op.progress).toEqual({ done: 1_001, total: 1_001 });
    const imp = await getJson(owner, `/api/v1/leads/imports/${op.resource.id}`);
    expect(imp).toMatchObject({
      status: 'completed_with_errors',
      counts: { total: 1_001, created: 1_000, invalid: 1 },
    });
    const errors = await getJson(owner, `/api/v1/leads/imports/${op.resource.id}/errors`);
    expect(errors.data).toEqual([
      expect.objectContaining({ row: 501, column: 'first_name', code: 'invalid_character' }),
    ]);
  });

  // The HTTP boundary refuses NUL in inline CSV text and in the options already; the operation does not rely on it.
  const actor = (who: SignupResult): Actor => ({
    kind: 'user',
    workspaceId: who.workspaceId,
    userId: who.userId,
    role: 'owner',
  });

  it('reports the row of a large inline CSV holding a NUL, kept for its job, whatever the boundary let through', async () => {
    const lines = [
      'email,first_name',
      ...Array.from({ length: 1_200 }, (_, i) => `c${i}@csv-nul.example,${i === 7 ? 'N\u0000L' : `C${i}`}`),
    ];
    const started = await bulkImportLeads(t.deps, actor(owner), { csv: lines.join('\n') });
    if (started.kind !== 'started') throw new Error('expected a job');
    let op = await getJson(owner, `/api/v1/operations/${started.operation.id}`);
    while (!terminal.includes(op.status)) op = await getJson(owner, `/api/v1/operations/${op.id}?wait_seconds=20`);
    expect(op.status).toBe('succeeded');
    const imp = await getJson(owner, `/api/v1/leads/imports/${op.resource.id}`);
    expect(imp.counts).toMatchObject({ total: 1_200, created: 1_199, invalid: 1 });
    const errors = await getJson(owner, `/api/v1/leads/imports/${op.resource.id}/errors`);
    expect(errors.data).toEqual([expect.objectContaining({ row: 8, column: 'first_name', code: 'invalid_character' })]);
  });

  it('refuses tags or a column_map for every row holding such a character, whatever the boundary let through', async () => {
    const tagged = bulkImportLeads(t.deps, actor(owner), {
      rows: [{ email: 'x@opts.example' }],
      tags: ['fine', 'b\u0000d'],
    });
    await expect(tagged).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ field: 'tags[1]', code: 'invalid_character' })],
    });
    const mapped = bulkImportLeads(t.deps, actor(owner), {
      csv: 'email\nx@opts.example\n',
      columnMap: { email: 'email', ['n\uD800']: 'first_name' },
    });
    await expect(mapped).rejects.toMatchObject({ code: 'validation_failed' });
    expect((await post(owner, { rows: [{ email: 'x@opts.example' }], tags: ['b\u0000d'] })).status).toBe(400);
  });

  it("finishes four such imports at once and another workspace's import beside them", async () => {
    const started = await Promise.all([1, 2, 3, 4].map((n) => post(owner, { rows: rowsWithNul(`four${n}.example`) })));
    const beside = await post(other, {
      rows: Array.from({ length: 1_001 }, (_, i) => ({ email: `o${i}@beside.example` })),
    });
    const ops = await Promise.all(started.map((res) => follow(owner, res)));
    const besideOp = await follow(other, beside);
    expect(ops.map((op) => op.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(besideOp.status).toBe('succeeded');
    for (const op of ops)
      expect((await getJson(owner, `/api/v1/leads/imports/${op.resource.id}`)).counts).toMatchObject({
        created: 1_000,
        invalid: 1,
      });
    expect((await getJson(other, `/api/v1/leads/imports/${besideOp.resource.id}`)).counts).toMatchObject({
      created: 1_001,
      invalid: 0,
    });
    const [{ n }] = await t.db
      .sql`select count(*)::int as n from lead_imports where workspace_id in (${owner.workspaceId}, ${other.workspaceId}) and status = 'processing'`;
    expect(n).toBe(0);
  });
});
