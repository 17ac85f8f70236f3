// The analytics operations refuse what they cannot answer, naming the query parameter, and never count
// another workspace's messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { approvedSequence, drain, json, readyWorkspace, type Workspace } from '../sequences/sequence-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let mine: Workspace;
let theirs: Workspace;
let theirSequence: string;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({
    jobs: 'enqueue',
    clock: { now: () => new Date('2026-11-24T10:00:00Z') },
    env: { SEQUENCE_SEND_SPACING_MS: '0' },
  }));
  mine = await readyWorkspace(t);
  theirs = await readyWorkspace(t);
  theirSequence = (await approvedSequence(t, theirs)).id;
  await json(
    t.request(`/api/v1/sequences/${theirSequence}/launch`, {
      method: 'POST',
      token: theirs.owner.token,
      json: { enroll: { lead_ids: theirs.leads.map((l) => l.id) } },
    }),
  );
  await drain(t);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

async function refused(path: string, field: string, code?: string): Promise<void> {
  const res = await t.request(path, { token: mine.owner.token });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(body.errors?.map((e: any) => e.field)).toContain(field);
  if (code) expect(body.errors.find((e: any) => e.field === field).code).toBe(code);
}

describe('analytics errors', () => {
  it('refuses a time zone that is not an IANA name, naming query.timezone', async () => {
    await refused('/api/v1/analytics/outreach?timezone=Mars/Olympus', 'query.timezone', 'invalid_timezone');
    await refused('/api/v1/analytics/outreach?timezone=%2B05:00', 'query.timezone', 'invalid_timezone');
  });

  it('refuses from after to, and a day grouping over more than 366 days', async () => {
    await refused('/api/v1/analytics/outreach?from=2026-11-25&to=2026-11-24', 'query.from', 'after_to');
    await refused(
      '/api/v1/analytics/outreach?group_by=day&from=2025-01-01&to=2026-11-24',
      'query.from',
      'range_too_long',
    );
    const year = await json(
      t.request('/api/v1/analytics/outreach?group_by=day&from=2025-11-24&to=2026-11-24', { token: mine.owner.token }),
    );
    expect(year.from).toBe('2025-11-24');
  });

  it('refuses an unknown dimension, a malformed date and more than two dimensions', async () => {
    await refused('/api/v1/analytics/outreach?group_by=step', 'query.group_by');
    await refused('/api/v1/analytics/outreach?from=24/11/2026', 'query.from', 'invalid_date');
    await refused('/api/v1/analytics/outreach?to=2026-02-30', 'query.to', 'invalid_date');
    await refused('/api/v1/analytics/outreach?group_by=sequence,mailbox,day', 'query.group_by', 'too_many');
  });

  it('refuses an unknown lead stage, and a variant grouping across sequences', async () => {
    await refused('/api/v1/analytics/outreach?lead_stage=contacted,hot', 'query.lead_stage');
    await refused(`/api/v1/sequences/${theirSequence}/analytics?lead_stage=warm`, 'query.lead_stage');
    await refused('/api/v1/analytics/outreach?group_by=variant', 'query.group_by');
  });

  it('defaults a day grouping to the 30 days up to today in the time zone', async () => {
    const a = await json(
      t.request('/api/v1/analytics/outreach?group_by=day&timezone=Pacific/Kiritimati', { token: mine.owner.token }),
    );
    expect(a).toMatchObject({ from: '2026-10-27', to: '2026-11-25', timezone: 'Pacific/Kiritimati', groups: [] });
  });
});

describe('analytics isolation', () => {
  it('answers 404 for a sequence of another workspace', async () => {
    const res = await t.request(`/api/v1/sequences/${theirSequence}/analytics`, { token: mine.owner.token });
    expect(res.status).toBe(404);
  });

  it("counts none of another workspace's messages", async () => {
    const a = await json(t.request('/api/v1/analytics/outreach?group_by=sequence', { token: mine.owner.token }));
    expect(a.totals.sent).toBe(0);
    expect(a.groups).toEqual([]);
    const b = await json(t.request('/api/v1/analytics/outreach?group_by=sequence', { token: theirs.owner.token }));
    expect(b.groups.map((g: any) => [g.sequence_id, g.sent])).toEqual([[theirSequence, 3]]);
  });

  it('needs the sequences read scope', async () => {
    const res = await t.request('/api/v1/analytics/outreach', {});
    expect(res.status).toBe(401);
  });
});
