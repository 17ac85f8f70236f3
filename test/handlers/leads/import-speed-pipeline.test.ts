// What the faster import must keep (issue 13): tags of any spelling survive the array literal they
// travel in; the engine reads the next batch while one is written, yet commits checkpoints strictly
// in order, stops reading when a write fails, and never leaves a write running after it returns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeadBatch } from '../../../src/handlers/leads/lead-batch.ts';
import { writeLeadBatch, writeLeadCounts } from '../../../src/handlers/leads/lead-batch-data.ts';
import { runImport, writeDepth } from '../../../src/handlers/leads/import-engine.ts';
import type { ImportItem } from '../../../src/handlers/leads/import-items.ts';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { blankLead, newImport } from './lead-fixtures.ts';

let t: TestApp;
let owner: SignupResult;
beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signup();
});
afterAll(async () => t?.close());

const lead = blankLead;

const newRowsImport = () => newImport(t, owner.workspaceId, { source: 'rows', tags: [] });

/** Rows 1..n, recording how far the engine had read each time a batch is about to be written. */
function source(prefix: string, n: number, read: { upTo: number }): AsyncGenerator<ImportItem> {
  return (async function* () {
    for (let row = 1; row <= n; row += 1) {
      read.upTo = row;
      yield { row, input: { email: `${prefix}${row}@pipe.example` } };
    }
  })();
}

describe('writeLeadBatch tags', () => {
  it('stores tags holding quotes, backslashes, commas, braces and the word NULL as given', async () => {
    const tags = ['say "hi"', 'back\\slash', 'a,b', '{x}', 'NULL', ' spaced ', 'ünï'];
    await writeLeadBatch(
      t.db.sql,
      owner.workspaceId,
      t.deps.ids,
      [{ row: 1, lead: lead('tags@pipe.example', { tags }) }],
      { onConflict: 'skip', importId: null, addTags: ['extra', 'NULL'], now: new Date() },
    );
    const [row] = await t.db
      .sql`select tags from leads where workspace_id = ${owner.workspaceId} and email = 'tags@pipe.example'`;
    expect(row.tags).toEqual([...tags, 'extra']);
  });

  it('reports created, updated and skipped rows in row order', async () => {
    const now = new Date();
    const batch = [5, 3, 9, 1].map((row) => ({ row, lead: lead(`order${row}@pipe.example`) }));
    expect(
      await writeLeadBatch(t.db.sql, owner.workspaceId, t.deps.ids, batch, {
        onConflict: 'skip',
        importId: null,
        addTags: [],
        now,
      }),
    ).toEqual({ created: [1, 3, 5, 9], updated: [], skipped: [] });
    const again = [...batch, { row: 2, lead: lead('order2@pipe.example') }];
    expect(
      await writeLeadBatch(t.db.sql, owner.workspaceId, t.deps.ids, again, {
        onConflict: 'skip',
        importId: null,
        addTags: [],
        now,
      }),
    ).toEqual({ created: [2], updated: [], skipped: [5, 3, 9, 1] });
    expect(
      await writeLeadBatch(t.db.sql, owner.workspaceId, t.deps.ids, again, {
        onConflict: 'update',
        importId: null,
        addTags: [],
        now,
      }),
    ).toEqual({ created: [], updated: [1, 2, 3, 5, 9], skipped: [] });
  });
});

describe('LeadBatch literals', () => {
  it('stores text fields and custom fields holding quotes, backslashes, braces and the word NULL as given', async () => {
    const odd = 'O"Brien \\ {x}, NULL';
    const custom = { note: 'a "quoted" \\ value', empty: null, n: 3, yes: true };
    await writeLeadBatch(
      t.db.sql,
      owner.workspaceId,
      t.deps.ids,
      [
        {
          row: 1,
          lead: lead('odd@pipe.example', { first_name: odd, company: 'NULL', title: null, custom_fields: custom }),
        },
      ],
      { onConflict: 'skip', importId: null, addTags: [], now: new Date() },
    );
    const [row] = await t.db
      .sql`select first_name, company, title, custom_fields from leads where workspace_id = ${owner.workspaceId} and email = 'odd@pipe.example'`;
    expect(row).toEqual({ first_name: odd, company: 'NULL', title: null, custom_fields: custom });
  });
});

describe('writeLeadCounts', () => {
  it('counts created, updated and skipped leads without reading them back', async () => {
    const batch = (emails: string[]) => {
      const leads = new LeadBatch(t.deps.ids, []);
      emails.forEach((email, i) => leads.add(i + 1, lead(email)));
      return leads;
    };
    const options = { importId: null, now: new Date() };
    expect(
      await writeLeadCounts(t.db.sql, owner.workspaceId, batch(['c1@pipe.example', 'c2@pipe.example']), {
        ...options,
        onConflict: 'skip',
      }),
    ).toEqual({ created: 2, updated: 0, skipped: 0 });
    expect(
      await writeLeadCounts(t.db.sql, owner.workspaceId, batch(['c1@pipe.example', 'c3@pipe.example']), {
        ...options,
        onConflict: 'skip',
      }),
    ).toEqual({ created: 1, updated: 0, skipped: 1 });
    expect(
      await writeLeadCounts(
        t.db.sql,
        owner.workspaceId,
        batch(['c2@pipe.example', 'c3@pipe.example', 'c4@pipe.example']),
        { ...options, onConflict: 'update' },
      ),
    ).toEqual({ created: 1, updated: 2, skipped: 0 });
  });
});

describe('runImport pipeline', () => {
  it('reads at most one batch beyond those being written and hears only committed rows', async () => {
    const target = await newRowsImport();
    const read = { upTo: 0 };
    // Indexed by the batch about to be written, as each call begins: two batches' reads of the checkpoint
    // may answer in either order.
    const seen: Array<{ done: number; readUpTo: number; committed: number }> = [];
    let calls = 0;
    const counts = await runImport(t.deps, target, source('ahead', 23, read), {
      batchSize: 5,
      between: async (done) => {
        const k = calls++;
        const readUpTo = read.upTo;
        const [row] = await t.db.sql`select rows_done from lead_imports where id = ${target.importId}`;
        seen[k] = { done, readUpTo, committed: row.rows_done };
      },
    });
    expect(counts).toEqual({ total: 23, created: 23, updated: 0, skipped_duplicate: 0, invalid: 0 });
    // `between` hears the rows committed so far: before batch k is written, the batch `depth` places
    // before it is committed (one at a time: the batch just before it), and no more than one batch
    // beyond batch k is read.
    const depth = writeDepth(t.db.kind, false);
    expect(seen).toHaveLength(5);
    seen.forEach((s, k) => {
      expect(s.done % 5).toBe(0);
      expect(s.done).toBeGreaterThanOrEqual(Math.max(0, (k - depth + 1) * 5));
      expect(s.done).toBeLessThanOrEqual(k * 5);
      expect(s.committed).toBeGreaterThanOrEqual(s.done);
      expect(s.readUpTo).toBeLessThanOrEqual(Math.min(23, s.done + 5 * (depth + 1)));
      if (k > 0) expect(s.done).toBeGreaterThanOrEqual(seen[k - 1].done);
    });
    if (depth === 1) expect(seen.map((s) => s.done)).toEqual([0, 5, 10, 15, 20]);
    const [row] = await t.db.sql`select rows_done from lead_imports where id = ${target.importId}`;
    expect(row.rows_done).toBe(23);
  });

  it('stops reading when a batch fails and keeps the batches committed before it', async () => {
    const target = await newRowsImport();
    const read = { upTo: 0 };
    let calls = 0;
    await expect(
      runImport(t.deps, target, source('stop', 1_000, read), {
        batchSize: 10,
        between: async () => {
          calls += 1;
          if (calls === 2) throw new Error('cancelled');
        },
      }),
    ).rejects.toThrow('cancelled');
    expect(read.upTo).toBeLessThanOrEqual(40);
    const [row] = await t.db.sql`select rows_done, created from lead_imports where id = ${target.importId}`;
    expect(row).toEqual({ rows_done: 10, created: 10 });
  });

  it('waits for the batch being written before throwing a read error', async () => {
    const target = await newRowsImport();
    const failing = (async function* (): AsyncGenerator<ImportItem> {
      for (let row = 1; row <= 12; row += 1) yield { row, input: { email: `readfail${row}@pipe.example` } };
      throw new Error('source broke');
    })();
    await expect(runImport(t.deps, target, failing, { batchSize: 5 })).rejects.toThrow('source broke');
    const [row] = await t.db.sql`select rows_done, created from lead_imports where id = ${target.importId}`;
    expect(row).toEqual({ rows_done: 10, created: 10 });
  });
});

describe('ids', () => {
  it('keeps the prefixed 26-character sortable format and never repeats', () => {
    const made = Array.from({ length: 2_000 }, () => t.deps.ids.make('lead'));
    for (const id of made) expect(id).toMatch(/^lead_[0-9abcdefghjkmnpqrstvwxyz]{26}$/);
    expect(new Set(made).size).toBe(made.length);
  });
});
