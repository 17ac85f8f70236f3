// The lead import engine, run directly: a CSV as people export it
// becomes leads with per-row errors, counts that add up to the rows read, duplicates counted once,
// and a resumed run that skips what a crashed one committed, so every row is written exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportSuperseded, runImport } from '../../../src/handlers/leads/import-engine.ts';
import { csvItems } from '../../../src/handlers/leads/import-items.ts';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { newImport } from './lead-fixtures.ts';

let t: TestApp;
let owner: SignupResult;
beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signup();
});
afterAll(async () => t?.close());

const newCsvImport = () => newImport(t, owner.workspaceId, { source: 'csv', tags: ['import'] });

async function* chunks(text: string, size = 7): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

const csv =
  '\uFEFFEmail;First Name;Company;Notes\r\nada@x.example;Ada;"Acme, Inc.";"line one\r\nline two"\r\n\r\nnot-an-email;Bob;Beta;\r\nADA@X.example;Ada again;Acme;\r\ngrace@x.example;Grace;Navy;x;extra\r\nlin@x.example;Lin;Lab;\r\n';

describe('the lead import engine', () => {
  it('imports a real-world CSV with per-row errors and counts that add up', async () => {
    const target = await newCsvImport();
    const counts = await runImport(t.deps, target, csvItems(chunks(csv), { Notes: 'custom_fields.notes' }), {
      batchSize: 2,
    });
    expect(counts).toEqual({ total: 5, created: 2, updated: 0, skipped_duplicate: 1, invalid: 2 });
    expect(counts.created + counts.updated + counts.skipped_duplicate + counts.invalid).toBe(counts.total);
    const errors = await t.db
      .sql`select row, code from lead_import_errors where import_id = ${target.importId} order by row, seq`;
    expect(errors.map((e) => [e.row, e.code])).toEqual([
      [2, 'email_invalid'],
      [4, 'column_count'],
    ]);
    const [ada] = await t.db
      .sql`select company, custom_fields, tags from leads where workspace_id = ${owner.workspaceId} and email = 'ada@x.example'`;
    expect(ada).toEqual({ company: 'Acme, Inc.', custom_fields: { notes: 'line one\r\nline two' }, tags: ['import'] });
    const [row] = await t.db
      .sql`select total, created, invalid, rows_done from lead_imports where id = ${target.importId}`;
    expect(row).toEqual({ total: 5, created: 2, invalid: 2, rows_done: 5 });
  });

  it('stops a run whose checkpoint another run of the import moved, writing nothing of its batch', async () => {
    const target = await newCsvImport();
    const lines = ['email,first_name', ...Array.from({ length: 6 }, (_, i) => `ahead${i}@x.example,P${i}`)].join('\n');
    // Another run (presumed dead and retried, yet alive) committed the first three rows already.
    await t.db.sql`update lead_imports set rows_done = 3, total = 3, created = 3 where id = ${target.importId}`;
    await expect(
      runImport(t.deps, target, csvItems(chunks(lines), undefined), { batchSize: 3 }),
    ).rejects.toBeInstanceOf(ImportSuperseded);
    const [{ n }] = await t.db.sql`select count(*)::int as n from leads where source_import_id = ${target.importId}`;
    expect(n).toBe(0);
    const [row] = await t.db.sql`select total, created, rows_done from lead_imports where id = ${target.importId}`;
    expect(row).toEqual({ total: 3, created: 3, rows_done: 3 });
  });

  it('resumes after a crash: committed batches are skipped, nothing is written or counted twice', async () => {
    const target = await newCsvImport();
    const lines = ['email,first_name', ...Array.from({ length: 10 }, (_, i) => `resume${i}@x.example,P${i}`)].join(
      '\n',
    );
    let batches = 0;
    await expect(
      runImport(t.deps, target, csvItems(chunks(lines), undefined), {
        batchSize: 3,
        between: async () => {
          batches += 1;
          if (batches === 3) throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    const [partial] = await t.db.sql`select rows_done, created from lead_imports where id = ${target.importId}`;
    expect(partial).toEqual({ rows_done: 6, created: 6 });
    await runImport(t.deps, target, csvItems(chunks(lines), undefined), { batchSize: 3, skipRows: partial.rows_done });
    const [done] = await t.db.sql`select total, created, rows_done from lead_imports where id = ${target.importId}`;
    expect(done).toEqual({ total: 10, created: 10, rows_done: 10 });
    const [{ n }] = await t.db
      .sql`select count(*)::int as n from leads where workspace_id = ${owner.workspaceId} and email like 'resume%'`;
    expect(n).toBe(10);
  });
});
