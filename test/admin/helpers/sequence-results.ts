// A workspace whose sequences have results, made through the real paths in sandbox mode on a fixed clock: the
// dispatcher and sender send, leads answer through simulate_sandbox_inbound and the mailbox sync, and the
// dispatcher's pass picks an A/B winner. Nothing is inserted by hand.
//
//   A/B intro (step 1: variants A and B, winner on reply rate after 10 delivered each; step 2 a day later,
//     step 3 five days after),
//     2026-11-23: step 1 to 44 leads and a .invalid address (refused at once); half of B's leads reply, one
//     A lead bounces later. 2026-11-24: B wins step 1; step 2 goes to the leads still enrolled,
//     2 of them reply and 1 bounces.
//   Webinar invite (two steps), 2026-11-24: step 1 to 2 other leads.   Follow-up draft: submitted, pending approval.
import { expect } from 'vitest';
import { syncMailbox } from '../../../src/handlers/replies/sync-mailbox.ts';
import type { TestApp } from '../../helpers/app.ts';
import { drain, relogin } from '../../handlers/sequences/sequence-fixtures.ts';
import { ok, oneStep, pendingSequence, sendingWorkspace, type SendingWorkspace } from './sequences.ts';

export const clock = { at: new Date('2026-11-23T10:00:00Z'), now: () => clock.at };

export interface Results {
  ws: SendingWorkspace;
  /** An API key of the owner: it outlives the clock's moves, which a login's JWT does not. */
  key: string;
  abIntro: string;
  webinar: string;
  pending: string;
}

const ANYTIME = {
  timezone: 'UTC',
  days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  start_hour: 0,
  end_hour: 24,
};

export const abIntro = (connectorId: string) => ({
  name: 'A/B intro',
  sender_connector_id: connectorId,
  schedule: ANYTIME,
  daily_limit: 500,
  tracking: { opens: true, clicks: false },
  auto_select_winner: { metric: 'reply_rate', min_sends_per_variant: 10, confidence: 0.9 },
  steps: [
    {
      variants: [
        { subject: 'Quick question, {{first_name}}', body: 'Variant A: we make engines that compute.' },
        { subject: 'An idea for {{company}}', body: 'Variant B: engines for {{company}}.' },
      ],
    },
    { wait_days: 1, body: 'Just following up, {{first_name | "there"}}.' },
    { wait_days: 5, body: 'One last note, {{first_name | "there"}}.' },
  ],
});

export async function resultsWorkspace(t: TestApp): Promise<Results> {
  const leads = [
    ...Array.from({ length: 48 }, (_, i) => ({ email: `lead${i}@example.com`, first_name: `Lead${i}`, company: 'Co' })),
    { email: 'ghost@nowhere.invalid', first_name: 'Ghost', company: 'Void' },
  ];
  const ws = await sendingWorkspace(t, leads);
  const key = (await t.createKey(ws.owner.token, 'results')).key;
  const ids = (from: number, to: number) => ws.leads.slice(from, to).map((l) => l.id);
  const ghost = ws.leads[48].id;

  const ab = await launched(t, ws, abIntro(ws.connector.id), [...ids(0, 44), ghost]);
  await drain(t);
  clock.at = new Date('2026-11-23T12:00:00Z');
  const first = await messages(t, key, ab);
  const byVariant = (v: number) => first.filter((m) => m.variant === v && m.status === 'sent');
  expect(byVariant(1).length).toBeGreaterThanOrEqual(11);
  expect(byVariant(2).length).toBeGreaterThanOrEqual(10);
  // Half of B's leads reply and none of A's: significant whatever the (random) split of 44 leads.
  const b = byVariant(2);
  for (const m of b.slice(0, Math.ceil(b.length / 2))) await answer(t, key, m.id, 'reply');
  await answer(t, key, byVariant(1)[0].id, 'bounce');
  expect(await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id)).toBe('synced');

  clock.at = new Date('2026-11-24T10:00:00Z');
  await relogin(t, ws);
  await drain(t);
  const second = (await messages(t, key, ab)).filter((m) => m.step === 2 && m.status === 'sent');
  expect(second.length).toBeGreaterThanOrEqual(3);
  await answer(t, key, second[0].id, 'reply');
  await answer(t, key, second[1].id, 'reply');
  await answer(t, key, second[2].id, 'bounce');
  expect(await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id)).toBe('synced');
  const decided = await ok(t.request(`/api/v1/sequences/${ab}`, { token: key }));
  expect(decided.variant_winners.map((w: any) => [w.step, w.label])).toEqual([[1, 'B']]);

  const invite = oneStep(ws.connector.id, 'Webinar invite');
  invite.steps = [...(invite.steps as unknown[]), { wait_days: 5, body: 'A reminder: the webinar is on Thursday.' }];
  const webinar = await launched(t, ws, invite, ids(44, 46));
  await drain(t);
  const pending = await pendingSequence(t, ws, 'Follow-up draft');
  return { ws, key, abIntro: ab, webinar, pending: pending.id };
}

/** Submits, approves (as the owner, a person) and launches a sequence with these leads; returns its id. */
async function launched(t: TestApp, ws: SendingWorkspace, body: Record<string, unknown>, leadIds: string[]) {
  const token = ws.owner.token;
  const seq = await pendingSequence(t, ws, String(body.name), body);
  await ok(
    t.request(`/api/v1/sequences/${seq.id}/approve`, { method: 'POST', token, json: { revision: seq.revision } }),
  );
  const launch = await ok(
    t.request(`/api/v1/sequences/${seq.id}/launch`, { method: 'POST', token, json: { enroll: { lead_ids: leadIds } } }),
  );
  expect(launch.sequence.status).toBe('active');
  return seq.id as string;
}

async function messages(t: TestApp, key: string, sequenceId: string): Promise<any[]> {
  const page = await ok(t.request(`/api/v1/sent-messages?sequence_id=${sequenceId}&limit=100`, { token: key }));
  return page.data;
}

/** simulate_sandbox_inbound: the lead answers the message (`reply`) or its server bounces it later. */
async function answer(t: TestApp, key: string, messageId: string, kind: 'reply' | 'bounce') {
  const text = kind === 'reply' ? 'Tell me more.' : undefined;
  await ok(
    t.request('/api/v1/sandbox/inbound', {
      method: 'POST',
      token: key,
      json: { message_id: messageId, kind, text },
    }),
    201,
  );
}
