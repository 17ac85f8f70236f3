// The bounce-rate pause, with a fixed clock: a mailbox whose hard bounces over its last 100 sends pass its
// threshold (a send refused at once, or a bounce notice later) is paused with reason bounce_rate and an event;
// the preview of every sequence using it says so; its enrollments that have sent nothing move to the sequence's
// other mailbox, which keeps sending; update_connector_sending {paused: false} resumes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { syncMailbox } from '../../../src/handlers/replies/sync-mailbox.ts';
import { approvedSequence, connectGmail, drain, json, readyWorkspace, relogin, twoSteps } from './sequence-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let now = new Date('2026-11-24T12:30:00Z');

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({
    jobs: 'enqueue',
    clock: { now: () => now },
    env: { SEQUENCE_SEND_SPACING_MS: '0' },
  }));
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const lead = (email: string) => ({ email, first_name: 'P', company: 'Co', custom_fields: { plan: 'p' } });
const sequenceOn = (ids: string[], waitDays = 0) => ({
  ...twoSteps(null),
  sender_connector_id: undefined,
  sender_connector_ids: ids,
  steps: [{ ...twoSteps(null).steps[0], wait_days: waitDays }],
});

describe('bounce-rate pause', () => {
  it('pauses only the mailbox that bounces too much, says so in previews, moves its waiting leads, and resumes', async () => {
    const good = Array.from({ length: 24 }, (_, i) => lead(`ok${i}@example.com`));
    const ws = await readyWorkspace(t, [...good, lead('ghost@nowhere.invalid')]);
    const token = () => ws.owner.token;
    const a = ws.connector.id;
    const b = (await connectGmail(t, token(), `second.${ws.owner.email.split('@')[0]}@sandbox.example`)).id;
    const ids = (from: number, to: number) => ws.leads.slice(from, to).map((l) => l.id);
    const launch = (seqId: string, leadIds: string[]) =>
      json(
        t.request(`/api/v1/sequences/${seqId}/launch`, {
          method: 'POST',
          token: token(),
          json: { enroll: { lead_ids: leadIds } },
        }),
      );
    const connector = (id: string) => json(t.request(`/api/v1/connectors/${id}`, { token: token() }));
    const preview = async (seqId: string) =>
      (await json(t.request(`/api/v1/sequences/${seqId}/preview`, { method: 'POST', token: token(), json: {} })))
        .checks;

    // 20 clean sends from a.
    const warm = await approvedSequence(t, ws, { ...sequenceOn([a]), name: 'Warm' });
    await launch(warm.id, ids(0, 20));
    await drain(t);
    // A sequence on both mailboxes whose first step is due tomorrow: two leads pinned to each.
    const both = await approvedSequence(t, ws, { ...sequenceOn([a, b], 1), name: 'Both' });
    await launch(both.id, ids(20, 24));
    const pins = async () =>
      (await json(t.request(`/api/v1/sequences/${both.id}/enrollments`, { token: token() }))).data.map(
        (e: any) => e.connector_id,
      );
    expect((await pins()).sort()).toEqual([a, a, b, b].sort());

    // One bounce refused at once: 1 of 21 is under 5%, a keeps sending.
    const bad = await approvedSequence(t, ws, { ...sequenceOn([a]), name: 'Bad' });
    await launch(bad.id, ids(24, 25));
    await drain(t);
    // (The refused one never left, so it does not count against the cap.)
    expect((await connector(a)).sending).toMatchObject({ paused: false, pause_reason: null, sent_last_24h: 20 });

    // A bounce notice for an accepted message: 2 of 21 is over 5%, a is paused.
    const sent = await json(t.request(`/api/v1/sent-messages?sequence_id=${warm.id}&limit=1`, { token: token() }));
    await json(
      t.request('/api/v1/sandbox/inbound', {
        method: 'POST',
        token: token(),
        json: { message_id: sent.data[0].id, kind: 'bounce' },
      }),
      201,
    );
    expect(await syncMailbox(t.deps, ws.owner.workspaceId, a)).toBe('synced');
    expect((await connector(a)).sending).toMatchObject({
      paused: true,
      pause_reason: 'bounce_rate',
      paused_at: now.toISOString(),
    });
    expect((await connector(b)).sending).toMatchObject({ paused: false });
    const events = await json(t.request('/api/v1/events?type=connector.sending_paused', { token: token() }));
    expect(events.data).toHaveLength(1);
    expect(events.data[0].data).toMatchObject({ id: a, reason: 'bounce_rate', hard_bounces: 2, sends: 21 });

    // Previews say so: a warning where another mailbox sends, blocking where none does.
    const bothChecks = await preview(both.id);
    expect(bothChecks).toContainEqual(expect.objectContaining({ code: 'mailbox_paused', severity: 'warning' }));
    expect(bothChecks.find((c: any) => c.code === 'mailbox_paused').message).toContain(a);
    expect(await preview(bad.id)).toContainEqual(
      expect.objectContaining({ code: 'mailbox_paused', severity: 'blocking' }),
    );

    // Tomorrow: the leads pinned to a that have sent nothing move to b, and b sends all four.
    now = new Date(now.getTime() + 86_400_000 + 60_000);
    await relogin(t, ws);
    await drain(t);
    expect(await pins()).toEqual([b, b, b, b]);
    const fromBoth = await json(
      t.request(`/api/v1/sent-messages?sequence_id=${both.id}&status=sent`, { token: token() }),
    );
    expect(fromBoth.data.map((m: any) => m.connector_id)).toEqual([b, b, b, b]);

    // Resumed by a person: an event, and the previews no longer warn.
    const resumed = await json(
      t.request(`/api/v1/connectors/${a}/sending`, { method: 'PATCH', token: token(), json: { paused: false } }),
    );
    expect(resumed.sending).toMatchObject({ paused: false, pause_reason: null, paused_at: null });
    const resumedEvents = await json(t.request('/api/v1/events?type=connector.sending_resumed', { token: token() }));
    expect(resumedEvents.data[0].data).toMatchObject({ id: a, paused_for: 'bounce_rate' });
    expect((await preview(bad.id)).filter((c: any) => c.code === 'mailbox_paused')).toEqual([]);
  });

  it('pauses on sends refused at once, claims nothing more from that mailbox, and sends again once resumed', async () => {
    now = new Date('2026-12-10T12:00:00Z');
    const ws = await readyWorkspace(t, [
      ...Array.from({ length: 20 }, (_, i) => lead(`fine${i}@example.com`)),
      lead('ghost1@nowhere.invalid'),
      lead('ghost2@nowhere.invalid'),
      lead('after@example.com'),
    ]);
    const a = ws.connector.id;
    const launch = async (name: string, from: number, to: number, waitDays = 0) => {
      const seq = await approvedSequence(t, ws, { ...sequenceOn([a], waitDays), name });
      await json(
        t.request(`/api/v1/sequences/${seq.id}/launch`, {
          method: 'POST',
          token: ws.owner.token,
          json: { enroll: { lead_ids: ws.leads.slice(from, to).map((l) => l.id) } },
        }),
      );
      await drain(t);
      return seq.id as string;
    };
    const statuses = async (seqId: string) =>
      (await json(t.request(`/api/v1/sent-messages?sequence_id=${seqId}`, { token: ws.owner.token }))).data.map(
        (m: any) => m.status,
      );
    await launch('Warm', 0, 20);
    const later = await launch('Tomorrow', 22, 23, 1);
    // 1 of 21 passes nothing; 2 of 22 passes 5%: paused.
    const risky = await launch('Risky', 20, 22);
    expect(await statuses(risky)).toEqual(['failed', 'failed']);
    const paused = await json(t.request(`/api/v1/connectors/${a}`, { token: ws.owner.token }));
    expect(paused.sending).toMatchObject({ paused: true, pause_reason: 'bounce_rate', sent_last_24h: 20 });
    const events = await json(t.request('/api/v1/events?type=connector.sending_paused', { token: ws.owner.token }));
    expect(events.data.map((e: any) => e.data)).toEqual([
      expect.objectContaining({ id: a, hard_bounces: 2, sends: 22 }),
    ]);

    // No sequence can be approved on it alone meanwhile, and what is due from it waits.
    const blocked = await json(
      t.request('/api/v1/sequences', {
        method: 'POST',
        token: ws.owner.token,
        json: { ...sequenceOn([a]), name: 'New' },
      }),
      201,
    );
    const refused = await json(
      t.request(`/api/v1/sequences/${blocked.id}/submit`, { method: 'POST', token: ws.owner.token }),
      409,
    );
    expect(refused.errors).toEqual([expect.objectContaining({ code: 'mailbox_paused' })]);
    now = new Date(now.getTime() + 86_400_000 + 60_000);
    await relogin(t, ws);
    await drain(t);
    expect(await statuses(later)).toEqual(['scheduled']);
    await json(
      t.request(`/api/v1/connectors/${a}/sending`, { method: 'PATCH', token: ws.owner.token, json: { paused: false } }),
    );
    await drain(t);
    expect(await statuses(later)).toEqual(['sent']);
  });
});
