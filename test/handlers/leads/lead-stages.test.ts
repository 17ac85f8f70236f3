// Lead stages as an agent lives them over /mcp (sandbox mode): a sent message moves `new` to `contacted`,
// a reply moves `contacted` to `replied`, auto-replies and bounces leave the stage, the service never moves
// a lead back from a stage a person set, and update_lead_stage records a `lead.stage_changed` event that a
// webhook receives. Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import {
  approvedSequence,
  drain,
  json,
  readyWorkspace,
  twoSteps,
  type Workspace,
} from '../sequences/sequence-fixtures.ts';
import { connectAgent, deliverWebhooks, syncOverMcp, type Agent } from '../replies/mcp-harness.ts';
import { migrate } from '../../../src/db/migrate.ts';

// The clock starts at the real time: a webhook receiver verifies the signed timestamp against its own clock.
let now = new Date();
/** Events list oldest first, ids breaking ties at random within a millisecond: each step gets its own time. */
const tick = () => {
  now = new Date(now.getTime() + 1000);
};
let t: TestApp;
let server: { url: string; close(): Promise<void> };
let receiver: Receiver;
const agents: Agent[] = [];

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({
    jobs: 'enqueue',
    clock: { now: () => now },
    env: { SEQUENCE_SEND_SPACING_MS: '0', OUTBOUND_ALLOW_PRIVATE: 'true' },
  }));
  receiver = await startReceiver();
});
afterAll(async () => {
  for (const a of agents) await a.client.close().catch(() => {});
  await receiver?.close();
  await server?.close();
  await t?.close();
});

interface Setup {
  ws: Workspace;
  key: string;
  agent: Agent;
  sequenceId: string;
  /** Lead ids by email. */
  lead: Record<string, string>;
}

/** A workspace with `emails` as leads, a sequence approved by the owner, and an agent on /mcp with an API key. */
async function setup(emails: string[]): Promise<Setup> {
  const ws = await readyWorkspace(
    t,
    emails.map((email) => ({ email, first_name: email.split('@')[0], company: 'Co', custom_fields: { plan: 'pro' } })),
  );
  const base = twoSteps(ws.connector.id);
  const seq = await approvedSequence(t, ws, { ...base, steps: [base.steps[0]] });
  const key = (await t.createKey(ws.owner.token, 'agent')).key;
  const agent = await connectAgent(server.url, key);
  agents.push(agent);
  return { ws, key, agent, sequenceId: seq.id, lead: Object.fromEntries(ws.leads.map((l) => [l.email, l.id])) };
}

const stages = async (s: Setup) =>
  Object.fromEntries((await s.agent.ok('list_leads', {})).data.map((l: any) => [l.email, l.stage])) as Record<
    string,
    string
  >;

const stageEvents = async (s: Setup) =>
  (await s.agent.ok('list_events', { type: ['lead.stage_changed'] })).data.map((e: any) => ({
    actor: e.actor.type,
    ...e.data,
  }));

describe('lead stages through sending and replies', () => {
  it('moves new leads to contacted when their message is sent, and leaves a won lead won', async () => {
    const s = await setup(['ann@a.example', 'ben@b.example']);
    expect(await stages(s)).toEqual({ 'ann@a.example': 'new', 'ben@b.example': 'new' });
    await s.agent.ok('update_lead_stage', { lead_id: s.lead['ben@b.example'], stage: 'won', note: 'signed' });
    tick();

    await s.agent.ok('launch_email_sequence', {
      sequence_id: s.sequenceId,
      enroll: { lead_ids: Object.values(s.lead) },
    });
    await drain(t);
    const sent = await s.agent.ok('list_sent_messages', { sequence_id: s.sequenceId, status: ['sent'] });
    expect(sent.data.map((m: any) => m.to).sort()).toEqual(['ann@a.example', 'ben@b.example']);

    expect(await stages(s)).toEqual({ 'ann@a.example': 'contacted', 'ben@b.example': 'won' });
    expect(await stageEvents(s)).toEqual([
      { actor: 'api_key', id: s.lead['ben@b.example'], from: 'new', to: 'won', by: 'api_key', note: 'signed' },
      { actor: 'system', id: s.lead['ann@a.example'], from: 'new', to: 'contacted', by: 'system', note: null },
    ]);
  });

  it('moves a contacted lead to replied on a reply; an auto-reply, a bounce and a reply to an interested lead change no stage', async () => {
    const emails = ['cy@c.example', 'di@d.example', 'ed@e.example', 'fa@f.example'];
    const s = await setup(emails);
    await s.agent.ok('launch_email_sequence', {
      sequence_id: s.sequenceId,
      enroll: { lead_ids: Object.values(s.lead) },
    });
    await drain(t);
    const sent = new Map<string, any>(
      (await s.agent.ok('list_sent_messages', { sequence_id: s.sequenceId, status: ['sent'] })).data.map((m: any) => [
        m.to,
        m,
      ]),
    );
    tick();
    await s.agent.ok('update_lead_stage', { lead_id: s.lead['fa@f.example'], stage: 'interested' });
    tick();

    await s.agent.ok('simulate_sandbox_inbound', {
      message_id: sent.get('cy@c.example').id,
      kind: 'reply',
      text: 'Tell me more.',
    });
    await s.agent.ok('simulate_sandbox_inbound', { message_id: sent.get('di@d.example').id, kind: 'auto_reply' });
    await s.agent.ok('simulate_sandbox_inbound', { message_id: sent.get('ed@e.example').id, kind: 'bounce' });
    await s.agent.ok('simulate_sandbox_inbound', {
      message_id: sent.get('fa@f.example').id,
      kind: 'reply',
      text: 'Yes.',
    });
    await syncOverMcp(t, s.agent, s.ws);
    const replies = (await s.agent.ok('list_replies', { sequence_id: s.sequenceId })).data;
    expect(replies.map((r: any) => r.classification).sort()).toEqual(['auto_reply', 'bounce', 'reply', 'reply']);

    expect(await stages(s)).toEqual({
      'cy@c.example': 'replied',
      'di@d.example': 'contacted',
      'ed@e.example': 'contacted',
      'fa@f.example': 'interested',
    });
    const events = await stageEvents(s);
    expect(events.filter((e: any) => e.to === 'replied')).toEqual([
      { actor: 'system', id: s.lead['cy@c.example'], from: 'contacted', to: 'replied', by: 'system', note: null },
    ]);
    expect(events.filter((e: any) => e.id === s.lead['fa@f.example']).map((e: any) => e.to)).toEqual([
      'contacted',
      'interested',
    ]);
  });

  it('records a manual change as a lead.stage_changed event that a webhook receives, signed', async () => {
    const s = await setup(['gus@g.example']);
    const hook = await json(
      t.request('/api/v1/webhook-endpoints', {
        method: 'POST',
        token: s.key,
        json: { url: receiver.url, event_types: ['lead.stage_changed'] },
      }),
      201,
    );
    receiver.useSecret(hook.secret);
    const lead = await s.agent.ok('update_lead_stage', {
      lead_id: s.lead['gus@g.example'],
      stage: 'meeting_booked',
      note: 'Call on Tuesday',
    });
    expect(lead).toMatchObject({ id: s.lead['gus@g.example'], stage: 'meeting_booked', status: 'active' });

    await deliverWebhooks(t, s.ws.owner.workspaceId);
    const delivered = receiver.received.filter((r) => r.verified?.type === 'lead.stage_changed');
    expect(delivered.map((r) => r.verified?.data)).toEqual([
      { id: s.lead['gus@g.example'], from: 'new', to: 'meeting_booked', by: 'api_key', note: 'Call on Tuesday' },
    ]);
  });

  it('enrolls by a stage filter only the leads in those stages', async () => {
    const s = await setup(['hal@h.example', 'ida@i.example', 'jo@j.example']);
    await s.agent.ok('update_lead_stage', { lead_id: s.lead['ida@i.example'], stage: 'interested' });
    await s.agent.ok('update_lead_stage', { lead_id: s.lead['jo@j.example'], stage: 'not_interested' });
    const result = await s.agent.ok('enroll_leads_in_sequence', {
      sequence_id: s.sequenceId,
      filter: { stage: ['new', 'interested'] },
    });
    expect(result.counts).toMatchObject({ considered: 2, enrolled: 2, skipped: 0 });
    const enrolled = (await s.agent.ok('list_sequence_enrollments', { sequence_id: s.sequenceId })).data;
    expect(enrolled.map((e: any) => e.lead_id).sort()).toEqual(
      [s.lead['hal@h.example'], s.lead['ida@i.example']].sort(),
    );
    const bad = await s.agent.call('enroll_leads_in_sequence', {
      sequence_id: s.sequenceId,
      filter: { stage: ['hot'] },
    });
    expect(bad.isError).toBe(true);
  });

  // Last in the file: it takes the column away and applies migration 0019 again, on the leads the tests above made.
  it('migration 0019 gives existing leads the stage their history shows: replied, else contacted, else new', async () => {
    await t.db.sql`drop index leads_workspace_stage`;
    await t.db.sql`alter table leads drop column stage`;
    await t.db.sql`delete from schema_migrations where name = '0019_lead_stages.sql'`;
    expect(await migrate(t.db.sql)).toEqual(['0019_lead_stages.sql']);
    const rows = await t.db.sql<{ email: string; stage: string }[]>`
      select email, stage from leads where email like '%.example' and email not like '%@sandbox.example'`;
    const byEmail = Object.fromEntries(rows.map((r) => [r.email, r.stage]));
    expect(byEmail).toMatchObject({
      // Sent to: a sequence message went out.
      'ann@a.example': 'contacted',
      'ben@b.example': 'contacted',
      'di@d.example': 'contacted',
      'ed@e.example': 'contacted',
      // Answered in words (last_replied_at).
      'cy@c.example': 'replied',
      'fa@f.example': 'replied',
      // Never sent to (enrolled in a sequence that was not launched, or not enrolled at all).
      'gus@g.example': 'new',
      'hal@h.example': 'new',
      'ida@i.example': 'new',
    });
  });
});
