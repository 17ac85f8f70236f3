// The sending limits, with a fixed clock: nothing leaves outside the sequence's window (its days and hours
// in its own time zone), at most daily_limit per local day per sequence, and at most the mailbox's cap in
// 24 hours across all its sequences.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import {
  approvedSequence,
  drain,
  json,
  readyWorkspace,
  relogin,
  twoSteps,
  type Workspace,
  numberedLeads,
} from './sequence-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
// Tuesday 2026-11-24, 07:30 in New York (12:30 UTC).
let now = new Date('2026-11-24T12:30:00Z');

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({
    jobs: 'enqueue',
    clock: { now: () => now },
    env: { SEQUENCE_SEND_SPACING_MS: '0', SEQUENCE_MAILBOX_DAILY_CAP: '5' },
  }));
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const sentCount = async (ws: Workspace, seqId: string) =>
  (await json(t.request(`/api/v1/sent-messages?sequence_id=${seqId}&status=sent&limit=100`, { token: ws.owner.token })))
    .data.length;

describe('sending limits', () => {
  it("waits for the window in the sequence's time zone, then sends at most daily_limit a local day", async () => {
    const ws = await readyWorkspace(t, numberedLeads(4, 'win'));
    const body = {
      ...twoSteps(ws.connector.id),
      daily_limit: 3,
      schedule: { timezone: 'America/New_York', days: ['tue', 'wed'], start_hour: 9, end_hour: 17 },
      steps: [twoSteps(null).steps[0]],
    };
    const seq = await approvedSequence(t, ws, body);
    await json(
      t.request(`/api/v1/sequences/${seq.id}/launch`, {
        method: 'POST',
        token: ws.owner.token,
        json: { enroll: { lead_ids: ws.leads.map((l) => l.id) } },
      }),
    );
    await drain(t);
    expect(await sentCount(ws, seq.id)).toBe(0); // 07:30 local: before the window

    now = new Date('2026-11-24T14:05:00Z'); // 09:05 local
    await relogin(t, ws);
    await drain(t);
    expect(await sentCount(ws, seq.id)).toBe(3); // daily_limit
    await drain(t);
    expect(await sentCount(ws, seq.id)).toBe(3);

    now = new Date('2026-11-25T04:30:00Z'); // Tue 23:30 local: outside the hours, though a new UTC day
    await relogin(t, ws);
    await drain(t);
    expect(await sentCount(ws, seq.id)).toBe(3);

    now = new Date('2026-11-25T14:00:00Z'); // Wednesday 09:00 local: a new local day
    await relogin(t, ws);
    await drain(t);
    expect(await sentCount(ws, seq.id)).toBe(4);
  });

  it('sends at most the mailbox cap in 24 hours across all its sequences', async () => {
    now = new Date('2026-11-26T15:00:00Z'); // Thursday
    const ws = await readyWorkspace(t, numberedLeads(8, 'cap'));
    const always = {
      timezone: 'UTC',
      days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      start_hour: 0,
      end_hour: 24,
    };
    const a = await approvedSequence(t, ws, {
      ...twoSteps(ws.connector.id),
      name: 'A',
      schedule: always,
      steps: [twoSteps(null).steps[0]],
    });
    const b = await approvedSequence(t, ws, {
      ...twoSteps(ws.connector.id),
      name: 'B',
      schedule: always,
      steps: [twoSteps(null).steps[0]],
    });
    await json(
      t.request(`/api/v1/sequences/${a.id}/launch`, {
        method: 'POST',
        token: ws.owner.token,
        json: { enroll: { lead_ids: ws.leads.slice(0, 4).map((l) => l.id) } },
      }),
    );
    await json(
      t.request(`/api/v1/sequences/${b.id}/launch`, {
        method: 'POST',
        token: ws.owner.token,
        json: { enroll: { lead_ids: ws.leads.slice(4).map((l) => l.id) } },
      }),
    );
    await drain(t);
    expect((await sentCount(ws, a.id)) + (await sentCount(ws, b.id))).toBe(5);
    now = new Date(now.getTime() + 24 * 3600_000 + 60_000);
    await relogin(t, ws);
    await drain(t);
    expect((await sentCount(ws, a.id)) + (await sentCount(ws, b.id))).toBe(8);
  });
});
