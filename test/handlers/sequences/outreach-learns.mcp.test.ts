// Issue 30's "done when", as an agent lives it over /mcp with the official SDK client in sandbox mode: a
// sequence with two A/B variants, sent from two mailboxes with open tracking on; leads reply (the sandbox's
// "reply as this lead" helper) and open (the pixel, fetched as a mail client would); then one
// get_sequence_analytics call grouped by variant and mailbox answers "which step and which variant gets
// replies, from which mailbox", and its numbers are the ones list_sent_messages shows message by message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { connectAgent, type Agent } from '../replies/mcp-harness.ts';
import { syncMailbox } from '../../../src/handlers/replies/sync-mailbox.ts';
import { connectGmail, drain, json, readyWorkspace, type Workspace } from './sequence-fixtures.ts';

const BROWSER =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Thunderbird/128.0';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let now = new Date('2026-11-23T10:00:00Z');
let ws: Workspace;
let second: { id: string };
let agent: Agent;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({
    jobs: 'enqueue',
    clock: { now: () => now },
    env: { SEQUENCE_SEND_SPACING_MS: '0' },
  }));
  ws = await readyWorkspace(
    t,
    Array.from({ length: 8 }, (_, i) => ({ email: `lead${i}@example.com`, first_name: `Lead${i}`, company: 'Co' })),
  );
  second = await connectGmail(t, ws.owner.token, `second.${ws.owner.email.split('@')[0]}@sandbox.example`);
  agent = await connectAgent(server.url, (await t.createKey(ws.owner.token, 'agent key')).key);
});
afterAll(async () => {
  await agent?.client.close().catch(() => {});
  await server?.close();
  await t?.close();
});

type Figures = { sent: number; replied: number; opened: number };

describe('outreach that learns, over MCP', () => {
  it('answers which variant gets replies and opens from which mailbox in one call, agreeing with the messages', async () => {
    const draft = await agent.ok('create_email_sequence', {
      name: 'Two mailboxes, two variants',
      sender_connector_ids: [ws.connector.id, second.id],
      tracking: { opens: true, clicks: false },
      schedule: {
        timezone: 'UTC',
        days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        start_hour: 0,
        end_hour: 24,
      },
      steps: [
        {
          variants: [
            { subject: 'Hello {{first_name}}', body: 'Short: we help {{company}}.' },
            { subject: 'A question for {{company}}', body: 'Long: may we help {{company}} this quarter?' },
          ],
        },
      ],
    });
    expect(draft.sender_connector_ids).toEqual([ws.connector.id, second.id]);
    const preview = await agent.ok('preview_email_sequence', { sequence_id: draft.id, lead_ids: [ws.leads[0].id] });
    expect(preview.tracking).toEqual({ opens: true, clicks: false });
    expect(preview.leads[0].messages.map((m: any) => m.variant)).toEqual([1, 2]);
    expect(preview.checks.map((c: any) => c.code)).toContain('tracking_on');

    const submitted = await agent.ok('submit_email_sequence_for_approval', { sequence_id: draft.id });
    await json(
      t.request(`/api/v1/sequences/${draft.id}/approve`, {
        method: 'POST',
        token: ws.owner.token,
        json: { revision: submitted.revision },
      }),
    );
    await agent.ok('launch_email_sequence', { sequence_id: draft.id, enroll: { lead_ids: ws.leads.map((l) => l.id) } });
    await drain(t);

    const sent = (await agent.ok('list_sent_messages', { sequence_id: draft.id, status: ['sent'], limit: 100 })).data;
    expect(sent).toHaveLength(8);
    // Each enrollment is pinned to one of the two mailboxes, round-robin, and its message left from it.
    const pinned = new Map(
      (await agent.ok('list_sequence_enrollments', { sequence_id: draft.id, limit: 100 })).data.map((e: any) => [
        e.id,
        e.connector_id,
      ]),
    );
    for (const m of sent) expect(m.connector_id).toBe(pinned.get(m.enrollment_id));
    const perMailbox = (id: string) => sent.filter((m: any) => m.connector_id === id).length;
    expect([perMailbox(ws.connector.id), perMailbox(second.id)]).toEqual([4, 4]);

    // Three leads reply, from whichever mailbox wrote to them; each mailbox's sync reads its own inbox.
    for (const m of sent.slice(0, 3))
      await agent.ok('simulate_sandbox_inbound', { message_id: m.id, kind: 'reply', text: 'Tell me more.' });
    for (const connectorId of [ws.connector.id, second.id])
      expect(await syncMailbox(t.deps, ws.owner.workspaceId, connectorId)).toBe('synced');

    // Two leads open the message a minute later (a person, not a scanner); one opens twice, counted once.
    now = new Date(now.getTime() + 60_000);
    const pixel = async (messageId: string) => {
      const m = sent.find((s: any) => s.id === messageId);
      const inbox = await agent.ok('list_sandbox_messages', { connector_id: m.connector_id, limit: 100 });
      const html: string = inbox.data.find((x: any) => x.message_id === m.message_id).html;
      return new URL(/<img src="([^"]+)"/.exec(html)?.[1] as string).pathname;
    };
    for (const m of [sent[2], sent[5], sent[5]]) {
      const res = await fetch(`${server.url}${await pixel(m.id)}`, { headers: { 'user-agent': BROWSER } });
      expect(res.status).toBe(200);
    }

    const analytics = await agent.ok('get_sequence_analytics', {
      sequence_id: draft.id,
      group_by: ['variant', 'mailbox'],
    });
    const messages = (await agent.ok('list_sent_messages', { sequence_id: draft.id, status: ['sent'], limit: 100 }))
      .data;
    const expected = new Map<string, Figures>();
    for (const m of messages) {
      const key = `1/${m.variant}/${m.connector_id}`;
      const f = expected.get(key) ?? { sent: 0, replied: 0, opened: 0 };
      f.sent += 1;
      if (m.reply_state === 'replied') f.replied += 1;
      if (m.opened_at) f.opened += 1;
      expected.set(key, f);
    }
    const got = new Map<string, Figures>(
      analytics.groups.map((g: any) => [
        `${g.step}/${g.variant}/${g.connector_id}`,
        { sent: g.sent, replied: g.replied, opened: g.opened },
      ]),
    );
    expect(got).toEqual(expected);
    expect(analytics.totals).toMatchObject({ sent: 8, delivered: 8, replied: 3, opened: 2, open_rate: 0.25 });
    expect(analytics.stages).toMatchObject({ replied: 3, contacted: 5 });
    expect(analytics.variant_tests).toEqual([{ step: 1, status: 'off', decision: null }]);
  });
});
