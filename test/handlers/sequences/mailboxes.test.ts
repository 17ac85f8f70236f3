// A sequence sending from several mailboxes, with a fixed clock: each enrollment pinned to one mailbox in
// proportion to what each may send a day, every step of a lead's thread from that mailbox, each mailbox held
// to its own daily cap and warm-up ramp across all sequences (with two claimers per mailbox at once), and
// the single sender_connector_id of before still meaning a list of one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { dispatchDue, sendFromMailbox } from '../../../src/handlers/sequences/sender.ts';
import {
  approvedSequence,
  connectGmail,
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
let now = new Date('2026-11-24T12:30:00Z');

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({
    jobs: 'enqueue',
    clock: { now: () => now },
    env: { SEQUENCE_SEND_SPACING_MS: '0', SEQUENCE_MAILBOX_DAILY_CAP: '50' },
  }));
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const oneStep = (ids: string[]) => ({
  ...twoSteps(null),
  sender_connector_id: undefined,
  sender_connector_ids: ids,
  steps: [twoSteps(null).steps[0]],
});
const later = (ms: number) => {
  now = new Date(now.getTime() + ms);
};
const DAY = 86_400_000;

async function twoMailboxes(n: number, tag: string): Promise<Workspace & { second: { id: string } }> {
  const ws = await readyWorkspace(t, numberedLeads(n, tag));
  const second = await connectGmail(t, ws.owner.token, `second.${ws.owner.email.split('@')[0]}@sandbox.example`);
  return { ...ws, second };
}
const launch = (ws: Workspace, seqId: string, leadIds: string[]) =>
  json(
    t.request(`/api/v1/sequences/${seqId}/launch`, {
      method: 'POST',
      token: ws.owner.token,
      json: { enroll: { lead_ids: leadIds } },
    }),
  );
const enrollments = async (ws: Workspace, seqId: string) =>
  (await json(t.request(`/api/v1/sequences/${seqId}/enrollments?limit=100`, { token: ws.owner.token }))).data;
const sent = async (ws: Workspace, seqId: string) =>
  (await json(t.request(`/api/v1/sent-messages?sequence_id=${seqId}&status=sent&limit=100`, { token: ws.owner.token })))
    .data;
const bySender = (messages: Array<{ connector_id: string }>) =>
  messages.reduce<Record<string, number>>(
    (acc, m) => ({ ...acc, [m.connector_id]: (acc[m.connector_id] ?? 0) + 1 }),
    {},
  );
const setSending = (ws: Workspace, connectorId: string, body: Record<string, unknown>) =>
  json(t.request(`/api/v1/connectors/${connectorId}/sending`, { method: 'PATCH', token: ws.owner.token, json: body }));

/** Two claimers per mailbox at once, as two sender processes would be (on PostgreSQL they run concurrently). */
async function drainConcurrently(passes = 5): Promise<void> {
  for (let pass = 0; pass < passes; pass++) {
    const mailboxes = await dispatchDue(t.deps);
    if (mailboxes.length === 0) return;
    await Promise.all(mailboxes.flatMap((m) => [sendFromMailbox(t.deps, m), sendFromMailbox(t.deps, m)]));
  }
}

describe('several mailboxes per sequence', () => {
  it('pins enrollments round-robin and sends every step of a thread from its pinned mailbox', async () => {
    now = new Date('2026-11-24T12:30:00Z');
    const ws = await twoMailboxes(6, 'rr');
    const a = ws.connector.id;
    const b = ws.second.id;
    const seq = await approvedSequence(t, ws, {
      ...oneStep([a, b]),
      // The follow-up answers in the thread ("Re: <first subject>").
      steps: [twoSteps(null).steps[0], { wait_days: 2, body: 'Just checking in, {{first_name | "friend"}}.' }],
    });
    expect(seq).toMatchObject({ sender_connector_id: a, sender_connector_ids: [a, b] });
    await launch(
      ws,
      seq.id,
      ws.leads.map((l) => l.id),
    );
    const pinned = await enrollments(ws, seq.id);
    expect(bySender(pinned)).toEqual({ [a]: 3, [b]: 3 });

    await drain(t);
    const first = await sent(ws, seq.id);
    expect(first).toHaveLength(6);
    const pinOf = new Map(pinned.map((e: any) => [e.id, e.connector_id]));
    for (const m of first) expect(m.connector_id).toBe(pinOf.get(m.enrollment_id));

    later(2 * DAY + 60_000);
    await relogin(t, ws);
    await drain(t);
    const all = await sent(ws, seq.id);
    expect(all).toHaveLength(12);
    for (const e of pinned) {
      const thread = all.filter((m: any) => m.enrollment_id === e.id);
      expect(thread.map((m: any) => m.step).sort()).toEqual([1, 2]);
      expect(new Set(thread.map((m: any) => m.connector_id))).toEqual(new Set([e.connector_id]));
      expect(new Set(thread.map((m: any) => m.thread_id)).size).toBe(1);
    }
    // Each lead's two messages are in the pinned mailbox's own sandbox inbox, and only there.
    for (const [connectorId, other] of [
      [a, b],
      [b, a],
    ]) {
      const inbox = (
        await json(
          t.request(`/api/v1/sandbox/messages?connector_id=${connectorId}&limit=100`, { token: ws.owner.token }),
        )
      ).data;
      const mine = pinned.filter((e: any) => e.connector_id === connectorId).map((e: any) => e.email);
      const theirs = pinned.filter((e: any) => e.connector_id === other).map((e: any) => e.email);
      const sentBox = inbox.filter((m: any) => m.direction === 'sent');
      expect(sentBox.filter((m: any) => mine.includes(m.to))).toHaveLength(6);
      expect(sentBox.filter((m: any) => theirs.includes(m.to))).toHaveLength(0);
    }
  });

  it('holds each mailbox to its own daily cap and warm-up ramp, two claimers at once, day after day', async () => {
    now = new Date('2026-11-26T15:00:00Z');
    const ws = await twoMailboxes(12, 'cap');
    const a = ws.connector.id;
    const b = ws.second.id;
    const capped = await setSending(ws, a, { daily_cap: 3 });
    expect(capped.sending).toMatchObject({
      daily_cap: 3,
      allowed_today: 3,
      sent_last_24h: 0,
      warmup: null,
      paused: false,
    });
    const ramped = await setSending(ws, b, { warmup: { start_per_day: 2, increase_per_day: 1, max_per_day: 10 } });
    expect(ramped.sending).toMatchObject({
      daily_cap: 50,
      allowed_today: 2,
      warmup: { start_per_day: 2, increase_per_day: 1, max_per_day: 10, started_at: now.toISOString() },
    });
    const seq = await approvedSequence(t, ws, oneStep([a, b]));
    await launch(
      ws,
      seq.id,
      ws.leads.map((l) => l.id),
    );
    // In proportion to 3 and 2 a day, ties to the first: 7 and 5.
    expect(bySender(await enrollments(ws, seq.id))).toEqual({ [a]: 7, [b]: 5 });

    await drainConcurrently();
    expect(bySender(await sent(ws, seq.id))).toEqual({ [a]: 3, [b]: 2 });
    const [ca, cb] = await Promise.all(
      [a, b].map((id) => json(t.request(`/api/v1/connectors/${id}`, { token: ws.owner.token }))),
    );
    expect(ca.sending).toMatchObject({ allowed_today: 3, sent_last_24h: 3 });
    expect(cb.sending).toMatchObject({ allowed_today: 2, sent_last_24h: 2 });

    later(12 * 3600_000); // half a day: the same 24 hours, the same ramp day
    await relogin(t, ws);
    await drainConcurrently();
    expect(bySender(await sent(ws, seq.id))).toEqual({ [a]: 3, [b]: 2 });

    later(12 * 3600_000 + 60_000); // a whole day since the ramp started: 3 a day for b
    await relogin(t, ws);
    await drainConcurrently();
    expect(bySender(await sent(ws, seq.id))).toEqual({ [a]: 6, [b]: 5 });

    later(DAY + 60_000);
    await relogin(t, ws);
    await drainConcurrently();
    expect(bySender(await sent(ws, seq.id))).toEqual({ [a]: 7, [b]: 5 });
  });

  it('counts a mailbox cap across all its sequences', async () => {
    now = new Date('2026-12-01T15:00:00Z');
    const ws = await twoMailboxes(6, 'across');
    const a = ws.connector.id;
    await setSending(ws, a, { daily_cap: 4 });
    const one = await approvedSequence(t, ws, { ...oneStep([a]), name: 'One' });
    const two = await approvedSequence(t, ws, { ...oneStep([a]), name: 'Two' });
    await launch(
      ws,
      one.id,
      ws.leads.slice(0, 3).map((l) => l.id),
    );
    await launch(
      ws,
      two.id,
      ws.leads.slice(3).map((l) => l.id),
    );
    await drainConcurrently();
    expect((await sent(ws, one.id)).length + (await sent(ws, two.id)).length).toBe(4);
  });

  it('keeps the single sender_connector_id: a list of one, the first of the list, and refuses the two disagreeing', async () => {
    const ws = await twoMailboxes(0, 'compat');
    const a = ws.connector.id;
    const b = ws.second.id;
    const token = ws.owner.token;
    const seq = await json(t.request('/api/v1/sequences', { method: 'POST', token, json: twoSteps(a) }), 201);
    expect(seq).toMatchObject({ sender_connector_id: a, sender_connector_ids: [a] });
    const patch = (json_: Record<string, unknown>, revision: number) =>
      t.request(`/api/v1/sequences/${seq.id}`, {
        method: 'PATCH',
        token,
        json: json_,
        headers: { 'if-match': `"${revision}"` },
      });
    const both = await json(patch({ sender_connector_ids: [b, a] }, seq.revision));
    expect(both).toMatchObject({ sender_connector_id: b, sender_connector_ids: [b, a] });
    const back = await json(patch({ sender_connector_id: a }, both.revision));
    expect(back).toMatchObject({ sender_connector_id: a, sender_connector_ids: [a] });

    const inconsistent = await json(
      patch({ sender_connector_id: a, sender_connector_ids: [b, a] }, back.revision),
      400,
    );
    expect(inconsistent.errors).toEqual([
      expect.objectContaining({ pointer: '/sender_connector_id', code: 'inconsistent' }),
    ]);
    const agreeing = await json(patch({ sender_connector_id: b, sender_connector_ids: [b] }, back.revision));
    expect(agreeing.sender_connector_ids).toEqual([b]);

    const unknown = 'conn_00000000000000000000000000';
    const missing = await json(patch({ sender_connector_ids: [b, unknown] }, agreeing.revision), 404);
    expect(missing.errors).toEqual([
      expect.objectContaining({ pointer: '/sender_connector_ids/1', code: 'not_found' }),
    ]);
    const meta = await json(
      t.request('/api/v1/connectors/oauth', { method: 'POST', token, json: { provider: 'meta_ads' } }),
      201,
    );
    const notMailbox = await json(patch({ sender_connector_ids: [meta.id] }, agreeing.revision), 400);
    expect(notMailbox.errors).toEqual([expect.objectContaining({ code: 'not_a_mailbox' })]);
    const none = await json(patch({ sender_connector_ids: [] }, agreeing.revision));
    expect(none).toMatchObject({ sender_connector_id: null, sender_connector_ids: [] });
    const preview = await json(t.request(`/api/v1/sequences/${seq.id}/preview`, { method: 'POST', token, json: {} }));
    expect(preview.checks).toContainEqual(
      expect.objectContaining({ code: 'sender_not_connected', severity: 'blocking' }),
    );
  });
});
