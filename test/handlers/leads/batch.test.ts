// The set-based batch write of lead imports: created, updated and
// skipped rows are told apart; `update` merges but never re-activates; a suppressed address is
// created suppressed. Runs on PGlite, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeadBatch } from '../../../src/handlers/leads/lead-batch.ts';
import { suppress } from '../../../src/handlers/leads/lead-suppressions-data.ts';
import { writeLeadBatch, writeLeadCounts } from '../../../src/handlers/leads/lead-batch-data.ts';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { blankLead } from './lead-fixtures.ts';

let t: TestApp;
let owner: SignupResult;
beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signup();
});
afterAll(async () => t?.close());

const lead = blankLead;

describe('writeLeadBatch', () => {
  it('creates new leads, skips existing ones, and reports each row', async () => {
    const now = new Date();
    const first = await writeLeadBatch(
      t.db.sql,
      owner.workspaceId,
      t.deps.ids,
      [
        { row: 1, lead: lead('a@x.example', { first_name: 'Ada' }) },
        { row: 2, lead: lead('b@x.example') },
      ],
      { onConflict: 'skip', importId: null, addTags: ['q4'], now },
    );
    expect(first).toEqual({ created: [1, 2], updated: [], skipped: [] });
    const second = await writeLeadBatch(
      t.db.sql,
      owner.workspaceId,
      t.deps.ids,
      [
        { row: 1, lead: lead('a@x.example', { first_name: 'Other' }) },
        { row: 2, lead: lead('c@x.example') },
      ],
      { onConflict: 'skip', importId: null, addTags: [], now },
    );
    expect(second).toEqual({ created: [2], updated: [], skipped: [1] });
    const [a] = await t.db
      .sql`select first_name, tags, status from leads where workspace_id = ${owner.workspaceId} and email = 'a@x.example'`;
    expect(a).toEqual({ first_name: 'Ada', tags: ['q4'], status: 'active' });
  });

  it('updates with on_conflict update: present fields win, tags and custom fields merge, status never changes', async () => {
    const now = new Date();
    await t.db
      .sql`update leads set status = 'unsubscribed' where workspace_id = ${owner.workspaceId} and email = 'b@x.example'`;
    const out = await writeLeadBatch(
      t.db.sql,
      owner.workspaceId,
      t.deps.ids,
      [{ row: 7, lead: lead('b@x.example', { company: 'Acme', tags: ['vip'], custom_fields: { plan: 'pro' } }) }],
      { onConflict: 'update', importId: null, addTags: [], now },
    );
    expect(out).toEqual({ created: [], updated: [7], skipped: [] });
    const [b] = await t.db
      .sql`select company, tags, custom_fields, status from leads where workspace_id = ${owner.workspaceId} and email = 'b@x.example'`;
    expect(b).toEqual({ company: 'Acme', tags: ['q4', 'vip'], custom_fields: { plan: 'pro' }, status: 'unsubscribed' });
  });

  it('creates an address on the suppression list as suppressed, never active', async () => {
    await suppress(t.db.sql, owner.workspaceId, 'gone@x.example', 'deleted', new Date());
    await writeLeadBatch(t.db.sql, owner.workspaceId, t.deps.ids, [{ row: 1, lead: lead('gone@x.example') }], {
      onConflict: 'skip',
      importId: null,
      addTags: [],
      now: new Date(),
    });
    const [row] = await t.db
      .sql`select status from leads where workspace_id = ${owner.workspaceId} and email = 'gone@x.example'`;
    expect(row.status).toBe('do_not_contact');
  });

  it('counts a batch written for counts alone, each address with its own suppression status', async () => {
    await suppress(t.db.sql, owner.workspaceId, 'left@y.example', 'unsubscribed', new Date());
    await writeLeadBatch(t.db.sql, owner.workspaceId, t.deps.ids, [{ row: 1, lead: lead('there@y.example') }], {
      onConflict: 'skip',
      importId: null,
      addTags: [],
      now: new Date(),
    });
    const batch = new LeadBatch(t.deps.ids, []);
    ['left@y.example', 'fresh@y.example', 'there@y.example'].forEach((email, i) => batch.add(i + 1, lead(email)));
    const counts = await writeLeadCounts(t.db.sql, owner.workspaceId, batch, {
      onConflict: 'skip',
      importId: null,
      now: new Date(),
    });
    expect(counts).toEqual({ created: 2, updated: 0, skipped: 1 });
    const rows = await t.db
      .sql`select email, status from leads where workspace_id = ${owner.workspaceId} and email like '%@y.example' order by email`;
    expect(rows.map((r) => [r.email, r.status])).toEqual([
      ['fresh@y.example', 'active'],
      ['left@y.example', 'unsubscribed'],
      ['there@y.example', 'active'],
    ]);
  });

  it('keeps each workspace to its own leads', async () => {
    const other = await t.signup();
    const out = await writeLeadBatch(t.db.sql, other.workspaceId, t.deps.ids, [{ row: 1, lead: lead('a@x.example') }], {
      onConflict: 'skip',
      importId: null,
      addTags: [],
      now: new Date(),
    });
    expect(out.created).toEqual([1]);
  });
});
