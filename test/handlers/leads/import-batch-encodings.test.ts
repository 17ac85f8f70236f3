// An import run as a job writes batches that keep no row per address: a repeated address goes to the
// database, which keeps its first copy and counts the others as skipped. On PostgreSQL such a batch
// goes by COPY into a staging table; on the embedded PGlite (where COPY through the socket kills the
// process) it cannot, and goes as array literals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BatchEncoding, LeadBatch } from '../../../src/handlers/leads/lead-batch.ts';
import { writeLeadCounts, writeLeads } from '../../../src/handlers/leads/lead-batch-data.ts';
import { type LeadFields } from '../../../src/handlers/leads/leads-data.ts';
import { runImport } from '../../../src/handlers/leads/import-engine.ts';
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

const onPostgres = () => t.db.kind === 'postgres';

function jobBatch(encoding: BatchEncoding, leads: LeadFields[]): LeadBatch {
  const batch = new LeadBatch(t.deps.ids, [], { trackRows: false, encoding });
  leads.forEach((lead, i) => batch.add(i + 1, lead));
  return batch;
}

const write = (batch: LeadBatch, onConflict: 'skip' | 'update') =>
  t.db.sql.begin((tx) =>
    writeLeadCounts(tx, owner.workspaceId, batch, { onConflict, importId: null, now: new Date(), database: t.db.kind }),
  );

const stored = async (email: string) =>
  (
    await t.db
      .sql`select first_name, company, title, tags, custom_fields, status from leads where workspace_id = ${owner.workspaceId} and email = ${email}`
  )[0];

describe.each<BatchEncoding>(['arrays', 'copy'])('a job batch encoded as %s', (encoding) => {
  const available = () => encoding === 'arrays' || onPostgres();

  it('keeps the first copy of an address repeated in the batch and counts the others as skipped (skip)', async (ctx) => {
    if (!available()) ctx.skip();
    const e = (name: string) => `${name}.${encoding}@repeat.example`;
    const batch = jobBatch(encoding, [
      blankLead(e('a'), { first_name: 'First' }),
      blankLead(e('b')),
      blankLead(e('a'), { first_name: 'Second' }),
      blankLead(e('a'), { first_name: 'Third' }),
    ]);
    expect(batch.size).toBe(4);
    expect(await write(batch, 'skip')).toEqual({ created: 2, updated: 0, skipped: 2 });
    expect(await stored(e('a'))).toMatchObject({ first_name: 'First', status: 'active' });
  });

  it('applies only the first copy of a repeated address to an existing lead (update)', async (ctx) => {
    if (!available()) ctx.skip();
    const e = (name: string) => `${name}.${encoding}@repeat-update.example`;
    expect(await write(jobBatch(encoding, [blankLead(e('x'), { company: 'Before' })]), 'skip')).toEqual({
      created: 1,
      updated: 0,
      skipped: 0,
    });
    const batch = jobBatch(encoding, [
      blankLead(e('y'), { title: 'New' }),
      blankLead(e('x'), { company: 'One' }),
      blankLead(e('x'), { company: 'Two' }),
      blankLead(e('y'), { title: 'Later' }),
    ]);
    expect(await write(batch, 'update')).toEqual({ created: 1, updated: 1, skipped: 2 });
    expect(await stored(e('x'))).toMatchObject({ company: 'One' });
    expect(await stored(e('y'))).toMatchObject({ title: 'New' });
  });

  it('stores values holding tabs, line breaks, backslashes, quotes, braces and the words NULL and \\N as given', async (ctx) => {
    if (!available()) ctx.skip();
    const email = `odd.${encoding}@values.example`;
    const odd = 'tab\there\nline\r\nback\\slash "q" {b} \\N';
    const custom = { note: 'a\tb\\c\n"d"', empty: null, n: 3, yes: true };
    const lead = blankLead(email, {
      first_name: odd,
      company: 'NULL',
      title: '\\N',
      tags: ['t\tab', 'back\\slash', 'NULL', 'ünï 🎉'],
      custom_fields: custom,
    });
    expect(await write(jobBatch(encoding, [lead]), 'skip')).toEqual({ created: 1, updated: 0, skipped: 0 });
    expect(await stored(email)).toMatchObject({
      first_name: odd,
      company: 'NULL',
      title: '\\N',
      tags: ['t\tab', 'back\\slash', 'NULL', 'ünï 🎉'],
      custom_fields: custom,
    });
  });
});

describe('COPY batches', () => {
  it('answer per row too, when their rows are tracked', async (ctx) => {
    if (!onPostgres()) ctx.skip();
    const batch = new LeadBatch(t.deps.ids, [], { encoding: 'copy' });
    [4, 2, 9].forEach((row) => batch.add(row, blankLead(`tracked${row}@copy.example`)));
    const first = await t.db.sql.begin((tx) =>
      writeLeads(tx, owner.workspaceId, batch, {
        onConflict: 'skip',
        importId: null,
        now: new Date(),
        database: 'postgres',
      }),
    );
    expect(first).toEqual({ created: [2, 4, 9], updated: [], skipped: [] });
    const again = await t.db.sql.begin((tx) =>
      writeLeads(tx, owner.workspaceId, batch, {
        onConflict: 'update',
        importId: null,
        now: new Date(),
        database: 'postgres',
      }),
    );
    expect(again).toEqual({ created: [], updated: [2, 4, 9], skipped: [] });
  });

  it('are refused on the embedded database before anything is sent, and the database still answers', async (ctx) => {
    if (onPostgres()) ctx.skip();
    const batch = jobBatch('copy', [blankLead('never@copy.example')]);
    await expect(write(batch, 'skip')).rejects.toThrow(/PostgreSQL only, not on pglite/);
    const [{ one }] = await t.db.sql`select 1 as one`;
    expect(one).toBe(1);
    expect(await stored('never@copy.example')).toBeUndefined();
  });

  it('are refused outside a transaction (their staged rows live until it commits)', async (ctx) => {
    if (!onPostgres()) ctx.skip();
    const batch = jobBatch('copy', [blankLead('outside@copy.example')]);
    await expect(
      writeLeadCounts(t.db.sql, owner.workspaceId, batch, {
        onConflict: 'skip',
        importId: null,
        now: new Date(),
        database: 'postgres',
      }),
    ).rejects.toThrow(/inside a transaction/);
    expect(await stored('outside@copy.example')).toBeUndefined();
  });

  it('fail, end their transaction and free its connection when the server refuses a value after the last write', async (ctx) => {
    if (!onPostgres()) ctx.skip();
    // A NUL cannot be stored in text: the server refuses the COPY once it reads that row, after the
    // whole (small) batch is sent. Normalisation refuses such a value first; this is the last line.
    const leads = Array.from({ length: 1_001 }, (_, i) =>
      blankLead(`nul${i}@copy.example`, { first_name: i === 500 ? 'Bad\u0000Name' : `N${i}` }),
    );
    let pid = 0;
    const failed = t.db.sql.begin(async (tx) => {
      [{ pid }] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
      return writeLeadCounts(tx, owner.workspaceId, jobBatch('copy', leads), {
        onConflict: 'skip',
        importId: null,
        now: new Date(),
        database: 'postgres',
      });
    });
    await expect(failed).rejects.toThrow(/refused the COPY/);
    // Back in the pool: idle, or running this very query when the pool hands it out again.
    const [session] = await t.db.sql<{ state: string }[]>`select state from pg_stat_activity where pid = ${pid}`;
    expect(session.state).toMatch(/^(idle|active)$/);
    expect(await stored('nul0@copy.example')).toBeUndefined();
    expect(await write(jobBatch('copy', [blankLead('after-nul@copy.example')]), 'skip')).toEqual({
      created: 1,
      updated: 0,
      skipped: 0,
    });
  });

  it('leave no staged rows behind when their transaction rolls back', async (ctx) => {
    if (!onPostgres()) ctx.skip();
    const batch = jobBatch('copy', [blankLead('rolled@copy.example')]);
    await expect(
      t.db.sql.begin(async (tx) => {
        await writeLeadCounts(tx, owner.workspaceId, batch, {
          onConflict: 'skip',
          importId: null,
          now: new Date(),
          database: 'postgres',
        });
        throw new Error('stop here');
      }),
    ).rejects.toThrow('stop here');
    expect(await stored('rolled@copy.example')).toBeUndefined();
    // The next batch on any connection of the pool starts from an empty staging table.
    const next = jobBatch('copy', [blankLead('after@copy.example')]);
    for (let i = 0; i < 3; i++)
      expect(await write(next, 'skip')).toEqual(
        i === 0 ? { created: 1, updated: 0, skipped: 0 } : { created: 0, updated: 0, skipped: 1 },
      );
    expect(await stored('rolled@copy.example')).toBeUndefined();
  });
});

describe('runImport as a job', () => {
  it('counts addresses repeated inside and across batches as duplicates, keeping each first copy', async () => {
    const target = await newImport(t, owner.workspaceId, { source: 'rows', tags: [] });
    // Rows 1..12 in batches of 4: r1 repeats in its own batch (row 3) and in later ones (rows 6, 11).
    const emails = ['r1', 'r2', 'r1', 'r3', 'r4', 'r1', 'r5', 'r5', 'r6', 'r7', 'r1', 'r8'];
    const items = (async function* (): AsyncGenerator<ImportItem> {
      for (const [i, name] of emails.entries())
        yield { row: i + 1, input: { email: `${name}@job-repeat.example`, first_name: `Row ${i + 1}` } };
    })();
    const counts = await runImport(t.deps, target, items, { batchSize: 4 });
    expect(counts).toEqual({ total: 12, created: 8, updated: 0, skipped_duplicate: 4, invalid: 0 });
    expect(await stored('r1@job-repeat.example')).toMatchObject({ first_name: 'Row 1' });
    expect(await stored('r5@job-repeat.example')).toMatchObject({ first_name: 'Row 7' });
  });

  it('applies an address repeated in later batches in row order (update), whatever is written at once', async () => {
    const target = await newImport(t, owner.workspaceId, { source: 'rows', tags: [] });
    // Batches of 4: u1 comes back in batches 2 and 3, so those wait for the batch before them; each
    // later copy updates the lead, so the last one's name is kept.
    const emails = ['u1', 'u2', 'u3', 'u4', 'u5', 'u1', 'u6', 'u7', 'u1', 'u8', 'u9', 'u10'];
    const items = (async function* (): AsyncGenerator<ImportItem> {
      for (const [i, name] of emails.entries())
        yield { row: i + 1, input: { email: `${name}@job-update.example`, first_name: `Row ${i + 1}` } };
    })();
    const counts = await runImport(t.deps, { ...target, onConflict: 'update' }, items, { batchSize: 4 });
    expect(counts).toEqual({ total: 12, created: 10, updated: 2, skipped_duplicate: 0, invalid: 0 });
    expect(await stored('u1@job-update.example')).toMatchObject({ first_name: 'Row 9' });
    expect(await stored('u7@job-update.example')).toMatchObject({ first_name: 'Row 8' });
  });
});
