// Issue 28 end to end, as an agent lives it over /mcp with the official SDK client, in sandbox mode: the
// sandbox lead answers (simulate_sandbox_inbound), the mailbox sync finds it through the sandbox's
// Gmail-compatible routes, and the sequence stops for that lead only; an auto-reply pushes the next step
// back, a late bounce suppresses, the conversation shows both directions, and the pre-send thread check
// stops a follow-up claimed before the answer came, with no sync at all. Runs on PGlite, and on
// PostgreSQL when DATABASE_URL is set.
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
import { mimeHeader } from './reply-fixtures.ts';
import { connectAgent, deliverWebhooks, sandboxThread, syncOverMcp, type Agent } from './mcp-harness.ts';
import { findConnector } from '../../../src/handlers/connectors/connectors-data.ts';
import { claimForMailbox, dispatchDue } from '../../../src/handlers/sequences/sender.ts';
import { sendClaimedMessage } from '../../../src/handlers/sequences/send-message.ts';

const DAY = 86_400_000;
// The clock starts at the real time: a webhook receiver verifies the signed timestamp against its own clock.
let now = new Date();
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

interface Launched {
  ws: Workspace;
  key: string;
  agent: Agent;
  sequenceId: string;
  /** Step 1 as list_sent_messages shows it, by lead email. */
  first: Map<string, any>;
}

/** A workspace whose two-step sequence (step 2 in_thread by default) was launched by the agent to `leads`; step 1 sent. */
async function launched(leads: string[]): Promise<Launched> {
  const ws = await readyWorkspace(
    t,
    leads.map((email) => ({ email, first_name: email.split('@')[0], company: 'Co', custom_fields: { plan: 'pro' } })),
  );
  const base = twoSteps(ws.connector.id);
  // Step 2 keeps the thread's subject ("Re: <first>"): Gmail threads a message only under its thread's subject.
  const steps = [base.steps[0], { wait_days: 2, body: 'Just checking in, {{first_name | "friend"}}.' }];
  const seq = await approvedSequence(t, ws, { ...base, steps });
  expect(seq.steps[1].in_thread).toBe(true);
  const key = (await t.createKey(ws.owner.token, 'agent')).key;
  const agent = await connectAgent(server.url, key);
  agents.push(agent);
  await agent.ok('launch_email_sequence', { sequence_id: seq.id, enroll: { lead_ids: ws.leads.map((l) => l.id) } });
  await drain(t);
  const sent = await agent.ok('list_sent_messages', { sequence_id: seq.id, status: ['sent'] });
  expect(sent.data).toHaveLength(leads.length);
  return { ws, key, agent, sequenceId: seq.id, first: new Map(sent.data.map((m: any) => [m.to, m])) };
}

const enrollments = async (l: Launched) =>
  new Map<string, any>(
    (await l.agent.ok('list_sequence_enrollments', { sequence_id: l.sequenceId })).data.map((e: any) => [e.lead_id, e]),
  );
const leadId = (l: Launched, email: string) => l.ws.leads.find((x) => x.email === email)?.id as string;
const stepTwos = async (l: Launched) =>
  (await l.agent.ok('list_sent_messages', { sequence_id: l.sequenceId, status: ['sent'] })).data.filter(
    (m: any) => m.step === 2,
  );

describe('replies end to end over MCP (sandbox mode)', () => {
  it('a reply stops that lead’s sequence: classified, evented, webhooked, and step 2 goes only to the other lead, in thread', async () => {
    const l = await launched(['ada@one.example', 'bo@two.example']);
    const hook = await json(
      t.request('/api/v1/webhook-endpoints', {
        method: 'POST',
        token: l.key,
        json: { url: receiver.url, event_types: ['email_message.*'] },
      }),
      201,
    );
    receiver.useSecret(hook.secret);
    const a = l.first.get('ada@one.example');
    const b = l.first.get('bo@two.example');
    expect(a.thread_id).toBeTruthy();

    const inbound = await l.agent.ok('simulate_sandbox_inbound', {
      message_id: a.id,
      kind: 'reply',
      text: 'No thanks.',
    });
    expect(inbound).toMatchObject({ direction: 'inbound' });
    await syncOverMcp(t, l.agent, l.ws);

    const replies = await l.agent.ok('list_replies', { sequence_id: l.sequenceId });
    expect(replies.data).toEqual([
      expect.objectContaining({ classification: 'reply', effect: 'stopped', lead_id: a.lead_id, message_id: a.id }),
    ]);
    const before = await enrollments(l);
    expect(before.get(a.lead_id)).toMatchObject({ status: 'stopped', stop_reason: 'replied' });
    expect(before.get(b.lead_id)).toMatchObject({ status: 'active' });

    const events = await l.agent.ok('list_events', { type: ['email_message.replied', 'lead.replied'] });
    expect(events.data.map((e: any) => e.type).sort()).toEqual(['email_message.replied', 'lead.replied']);
    expect(events.data.find((e: any) => e.type === 'lead.replied').data).toMatchObject({ id: a.lead_id });

    await deliverWebhooks(t, l.ws.owner.workspaceId);
    const delivered = receiver.received.filter((r) => r.verified?.type === 'email_message.replied');
    expect(delivered).toHaveLength(1);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(receiver.received.some((r) => r.verified?.type === 'lead.replied')).toBe(false);

    now = new Date(now.getTime() + 3 * DAY);
    await drain(t);
    const twos = await stepTwos(l);
    expect(twos.map((m: any) => m.to)).toEqual(['bo@two.example']);
    expect(twos[0].thread_id).toBe(b.thread_id);
    // In the sandbox mailbox: B's thread holds step 1 then step 2 answering it; A's holds step 1 and A's reply only.
    const bThread = await sandboxThread(t, b.thread_id);
    expect(bThread.map((m) => m.direction)).toEqual(['sent', 'sent']);
    const [bStep1] = await t.db.sql<{ message_id_header: string }[]>`
      select message_id_header from sequence_messages where id = ${b.id}`;
    expect(mimeHeader(bThread[1].raw, 'In-Reply-To')).toBe(bStep1.message_id_header);
    expect(mimeHeader(bThread[1].raw, 'Subject')).toBe(`Re: ${b.subject}`);
    expect((await sandboxThread(t, a.thread_id)).map((m) => m.direction)).toEqual(['sent', 'inbound']);
    const toAda = await t.db.sql`
      select id from sandbox_messages where workspace_id = ${l.ws.owner.workspaceId} and to_header like '%ada@one.example%'`;
    expect(toAda).toHaveLength(1);
  });

  it('an auto-reply pushes the lead’s next step back by auto_reply_pause_days and it is sent later; a bounce suppresses the lead', async () => {
    const l = await launched(['cy@three.example', 'di@four.example', 'ed@five.example']);
    const cy = l.first.get('cy@three.example');
    const di = l.first.get('di@four.example');
    const due = (await enrollments(l)).get(cy.lead_id).next_due_at;
    now = new Date(now.getTime() + 60_000);
    await l.agent.ok('simulate_sandbox_inbound', { message_id: cy.id, kind: 'auto_reply' });
    await l.agent.ok('simulate_sandbox_inbound', { message_id: di.id, kind: 'bounce' });
    await syncOverMcp(t, l.agent, l.ws);

    const replies = (await l.agent.ok('list_replies', { sequence_id: l.sequenceId })).data;
    expect(replies.map((r: any) => [r.lead_id, r.classification, r.effect]).sort()).toEqual(
      [
        [cy.lead_id, 'auto_reply', 'paused'],
        [di.lead_id, 'bounce', 'suppressed'],
      ].sort(),
    );
    const after = await enrollments(l);
    expect(after.get(cy.lead_id).status).toBe('active');
    expect(new Date(after.get(cy.lead_id).next_due_at).getTime() - new Date(due).getTime()).toBe(3 * DAY);
    expect(after.get(di.lead_id).status).toBe('stopped');
    const lead = await json(t.request(`/api/v1/leads/${di.lead_id}`, { token: l.key }));
    expect(lead.status).toBe('bounced');
    const suppressed = await t.db.sql`
      select reason from lead_suppressions where workspace_id = ${l.ws.owner.workspaceId}`;
    expect(suppressed.map((r) => r.reason)).toEqual(['bounced']);
    const sent = (await l.agent.ok('list_sent_messages', { sequence_id: l.sequenceId })).data;
    expect(sent.find((m: any) => m.id === di.id)).toMatchObject({ reply_state: 'bounced' });
    expect(sent.find((m: any) => m.id === cy.id)).toMatchObject({ reply_state: 'auto_replied' });

    // When step 2 was due, only Ed gets it; three days later Cy's paused step goes out after all.
    now = new Date(now.getTime() + 2 * DAY);
    await drain(t);
    expect((await stepTwos(l)).map((m: any) => m.to)).toEqual(['ed@five.example']);
    now = new Date(now.getTime() + 3 * DAY);
    await drain(t);
    expect((await stepTwos(l)).map((m: any) => m.to).sort()).toEqual(['cy@three.example', 'ed@five.example']);

    const conv = await l.agent.ok('get_conversation', { lead_id: cy.lead_id });
    expect(conv.messages.map((m: any) => [m.direction, m.kind, m.step ?? m.classification])).toEqual([
      ['outbound', 'sequence_message', 1],
      ['inbound', 'inbound', 'auto_reply'],
      ['outbound', 'sequence_message', 2],
    ]);
    const draft = await l.agent.ok('reply_to_conversation', { lead_id: cy.lead_id, body: 'Welcome back, Cy.' });
    expect(draft).toMatchObject({ status: 'pending_approval', sent_at: null });
    expect(draft.approval_url).toBe(`${server.url}/admin/approvals?reply=${draft.id}`);
  });

  it('a reply arriving after step 2 was claimed but before it is sent stops the send, with no sync run', async () => {
    const l = await launched(['fay@six.example']);
    const fay = l.first.get('fay@six.example');
    now = new Date(now.getTime() + 3 * DAY);
    await dispatchDue(t.deps);
    const connector = await findConnector(t.deps.db.sql, l.ws.owner.workspaceId, l.ws.connector.id);
    if (!connector) throw new Error('no connector');
    const held = await claimForMailbox(t.deps, connector);
    expect(held.map((h) => h.message.step)).toEqual([2]);
    await l.agent.ok('simulate_sandbox_inbound', { message_id: fay.id, kind: 'reply', text: 'Stop, please.' });
    await sendClaimedMessage(t.deps, connector, held[0].message, held[0].token);

    expect((await sandboxThread(t, fay.thread_id)).map((m) => m.direction)).toEqual(['sent', 'inbound']);
    expect((await enrollments(l)).get(leadId(l, 'fay@six.example'))).toMatchObject({
      status: 'stopped',
      stop_reason: 'replied',
    });
    const all = (await l.agent.ok('list_sent_messages', { sequence_id: l.sequenceId })).data;
    expect(all.find((m: any) => m.step === 2)).toMatchObject({ status: 'cancelled' });
    const [syncs] = await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from mailbox_syncs where connector_id = ${l.ws.connector.id} and last_synced_at is not null`;
    expect(syncs.n).toBe(0);
  });
});
