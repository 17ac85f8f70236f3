// get_sequence_analytics and get_outreach_analytics on a workspace whose outreach went through the real
// sending, bounce, reply and unsubscribe paths (outreach-fixture.ts): exact figures by step, mailbox and day
// in two time zones, agreement with list_sent_messages, and one call over MCP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { json } from '../sequences/sequence-fixtures.ts';
import { connectAgent, type Agent } from '../replies/mcp-harness.ts';
import { clock, outreachWorkspace, type Outreach } from './outreach-fixture.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let o: Outreach;
let agent: Agent | undefined;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', clock, env: { SEQUENCE_SEND_SPACING_MS: '0' } }));
  o = await outreachWorkspace(t);
});
afterAll(async () => {
  await agent?.client.close();
  await server?.close();
  await t?.close();
});

const get = (path: string) => json(t.request(path, { token: o.key }));
const sequence = (query: string) => get(`/api/v1/sequences/${o.intro}/analytics?${query}`);
const outreach = (query: string) => get(`/api/v1/analytics/outreach?${query}`);

const figures = (sent: number, bounced: number, replied: number, autoReplied: number, unsubscribed: number) => {
  const delivered = sent - bounced;
  const rate = (part: number, whole: number) => (whole ? Math.round((part / whole) * 10_000) / 10_000 : null);
  return {
    sent,
    delivered,
    bounced,
    replied,
    auto_replied: autoReplied,
    unsubscribed,
    opened: 0,
    clicked: 0,
    reply_rate: rate(replied, delivered),
    bounce_rate: rate(bounced, sent),
    unsubscribe_rate: rate(unsubscribed, delivered),
    open_rate: null,
    click_rate: null,
  };
};
const stepOne = figures(5, 2, 1, 1, 0);
const stepTwo = figures(1, 0, 1, 0, 0);
const webinar = figures(2, 0, 0, 0, 2);

describe('get_sequence_analytics', () => {
  it('counts an immediate refusal and a late bounce as bounced, and replies against the step they answered', async () => {
    const a = await sequence('group_by=step');
    expect(a.totals).toEqual(figures(6, 2, 2, 1, 0));
    expect(a.groups).toEqual([
      { step: 1, ...stepOne },
      { step: 2, ...stepTwo },
    ]);
    expect(a).toMatchObject({ group_by: ['step'], from: null, to: '2026-11-26', timezone: 'UTC' });
    // The stages the real send and reply paths moved the leads to: ghost was refused before any send.
    expect(a.stages).toEqual({
      new: 1,
      contacted: 2,
      replied: 2,
      interested: 0,
      meeting_booked: 0,
      won: 0,
      lost: 0,
      not_interested: 0,
    });
    expect(a.variant_tests).toEqual([]);
  });

  it('groups by step and mailbox in one call, naming the mailbox', async () => {
    const a = await sequence('group_by=step,mailbox');
    expect(a.groups.map((g: any) => [g.step, g.connector_id, g.mailbox, g.replied])).toEqual([
      [1, o.ws.connector.id, o.ws.connector.account_email, 1],
      [2, o.ws.connector.id, o.ws.connector.account_email, 1],
    ]);
  });

  it('puts a send near midnight UTC on the day it fell on in the requested time zone', async () => {
    const utc = await sequence('group_by=day&from=2026-11-20');
    expect(utc.groups).toEqual([
      { day: '2026-11-23', ...stepOne },
      { day: '2026-11-26', ...stepTwo },
    ]);
    const tokyo = await sequence('group_by=day&from=2026-11-20&timezone=Asia/Tokyo');
    expect(tokyo.groups.map((g: any) => [g.day, g.sent])).toEqual([
      ['2026-11-24', 5],
      ['2026-11-26', 1],
    ]);
    expect(tokyo.timezone).toBe('Asia/Tokyo');
  });

  it('counts only the days from..to of the time zone, with to included', async () => {
    expect((await sequence('from=2026-11-24')).totals.sent).toBe(1);
    expect((await sequence('from=2026-11-24&timezone=Asia/Tokyo')).totals.sent).toBe(6);
    expect((await sequence('from=2026-11-23&to=2026-11-23')).totals).toEqual(stepOne);
    expect((await sequence('to=2026-11-22')).totals).toEqual(figures(0, 0, 0, 0, 0));
  });

  it('agrees with list_sent_messages step by step', async () => {
    const messages: any[] = [];
    let cursor = '';
    do {
      const page = await get(`/api/v1/sent-messages?sequence_id=${o.intro}&limit=2${cursor}`);
      messages.push(...page.data);
      cursor = page.next_cursor ? `&cursor=${page.next_cursor}` : '';
    } while (cursor);
    const counted = messages.filter(
      (m) => m.status === 'sent' || (m.status === 'failed' && m.error_code === 'bounced'),
    );
    const a = await sequence('group_by=step');
    for (const group of a.groups) {
      const mine = counted.filter((m) => m.step === group.step);
      expect([group.sent, group.bounced, group.replied, group.auto_replied]).toEqual([
        mine.length,
        mine.filter((m) => m.status === 'failed' || m.reply_state === 'bounced').length,
        mine.filter((m) => m.reply_state === 'replied').length,
        mine.filter((m) => m.reply_state === 'auto_replied').length,
      ]);
    }
    expect(a.totals.sent).toBe(counted.length);
  });
});

describe('get_outreach_analytics', () => {
  it('counts unsubscribes asked in words and through the link, by sequence and mailbox', async () => {
    const a = await outreach('group_by=sequence,mailbox');
    expect(a.totals).toEqual(figures(8, 2, 2, 1, 2));
    const bySequence = new Map(a.groups.map((g: any) => [g.sequence_id, g]));
    expect(bySequence.get(o.webinar)).toEqual({
      sequence_id: o.webinar,
      sequence_name: 'Webinar',
      connector_id: o.mailboxB.id,
      mailbox: o.mailboxB.account_email,
      ...webinar,
    });
    expect(bySequence.get(o.intro)).toMatchObject({ connector_id: o.ws.connector.id, ...figures(6, 2, 2, 1, 0) });
  });

  it('groups the workspace by day in two time zones', async () => {
    const utc = await outreach('group_by=day&from=2026-11-20');
    expect(utc.groups.map((g: any) => [g.day, g.sent])).toEqual([
      ['2026-11-23', 5],
      ['2026-11-24', 2],
      ['2026-11-26', 1],
    ]);
    const tokyo = await outreach('group_by=day&from=2026-11-20&timezone=Asia/Tokyo');
    expect(tokyo.groups.map((g: any) => [g.day, g.sent])).toEqual([
      ['2026-11-24', 7],
      ['2026-11-26', 1],
    ]);
  });

  it('answers "which step gets replies, from which mailbox, this week" in one MCP call', async () => {
    agent = await connectAgent(server.url, o.key);
    const a = await agent.ok('get_sequence_analytics', {
      sequence_id: o.intro,
      group_by: ['step', 'mailbox'],
      from: '2026-11-23',
      to: '2026-11-29',
    });
    expect(a.groups.map((g: any) => [g.step, g.mailbox, g.replied, g.reply_rate])).toEqual([
      [1, o.ws.connector.account_email, 1, 0.3333],
      [2, o.ws.connector.account_email, 1, 1],
    ]);
  });
});
