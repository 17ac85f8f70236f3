// Opens, clicks, variants, lead stages and A/B test states in get_sequence_analytics and
// get_outreach_analytics, exact on a workspace whose messages carry the tracking and variant columns
// (seeded-fixture.ts), in two time zones, in agreement with list_sent_messages, and over MCP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { json } from '../sequences/sequence-fixtures.ts';
import { connectAgent, type Agent } from '../replies/mcp-harness.ts';
import { decision, seededWorkspace, type Seeded } from './seeded-fixture.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let o: Seeded;
let agent: Agent | undefined;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({
    jobs: 'enqueue',
    clock: { now: () => new Date('2026-11-26T12:00:00Z') },
  }));
  o = await seededWorkspace(t);
});
afterAll(async () => {
  await agent?.client.close();
  await server?.close();
  await t?.close();
});

const get = (path: string) => json(t.request(path, { token: o.key }));
const tests = (query: string) => get(`/api/v1/sequences/${o.tests}/analytics?${query}`);
const outreach = (query: string) => get(`/api/v1/analytics/outreach?${query}`);

const rate = (part: number, whole: number) => (whole ? Math.round((part / whole) * 10_000) / 10_000 : null);
/** The figures of messages: counts, then the delivered messages that carried the pixel and the rewritten links. */
function figures(c: [number, number, number, number, number, number, number, number, number]) {
  const [sent, bounced, replied, autoReplied, unsubscribed, opened, clicked, openTracked, clickTracked] = c;
  const delivered = sent - bounced;
  return {
    sent,
    delivered,
    bounced,
    replied,
    auto_replied: autoReplied,
    unsubscribed,
    opened,
    clicked,
    reply_rate: rate(replied, delivered),
    bounce_rate: rate(bounced, sent),
    unsubscribe_rate: rate(unsubscribed, delivered),
    open_rate: rate(opened, openTracked),
    click_rate: rate(clicked, clickTracked),
  };
}
const noStages = {
  new: 0,
  contacted: 0,
  replied: 0,
  interested: 0,
  meeting_booked: 0,
  won: 0,
  lost: 0,
  not_interested: 0,
};
const everyStage = { ...noStages, contacted: 1, interested: 1, meeting_booked: 1, won: 1, lost: 1, not_interested: 1 };

describe('get_sequence_analytics by variant', () => {
  it('counts human opens and clicks by step and variant, with rates over the tracked delivered messages', async () => {
    const a = await tests('group_by=step,variant');
    expect(a.totals).toEqual(figures([8, 2, 1, 1, 1, 3, 2, 5, 4]));
    expect([a.totals.open_rate, a.totals.click_rate]).toEqual([0.6, 0.5]);
    expect(a.groups).toEqual([
      { step: 1, variant: 1, ...figures([2, 1, 1, 0, 0, 1, 1, 1, 1]) },
      { step: 1, variant: 2, ...figures([3, 1, 0, 0, 0, 1, 0, 2, 2]) },
      { step: 2, variant: 1, ...figures([1, 0, 0, 1, 0, 0, 1, 1, 1]) },
      { step: 2, variant: 2, ...figures([1, 0, 0, 0, 1, 1, 0, 1, 0]) },
      { step: 3, variant: null, ...figures([1, 0, 0, 0, 0, 0, 0, 0, 0]) },
    ]);
  });

  it('answers null open and click rates where no delivered message carried that tracking', async () => {
    const a = await tests('group_by=step,variant');
    const stepThree = a.groups.find((g: any) => g.step === 3);
    expect([stepThree.sent, stepThree.open_rate, stepThree.click_rate]).toEqual([1, null, null]);
    const stepTwoB = a.groups.find((g: any) => g.step === 2 && g.variant === 2);
    expect([stepTwoB.open_rate, stepTwoB.click_rate]).toEqual([1, null]);
    const cold = await get(`/api/v1/sequences/${o.cold}/analytics`);
    expect(cold.totals).toEqual(figures([1, 0, 1, 0, 0, 0, 0, 0, 0]));
    expect([cold.totals.open_rate, cold.totals.click_rate]).toEqual([null, null]);
  });

  it('groups by variant alone as by step and variant, and by variant and mailbox', async () => {
    expect((await tests('group_by=variant')).groups).toEqual((await tests('group_by=step,variant')).groups);
    const a = await tests('group_by=variant,mailbox');
    expect(a.groups.map((g: any) => [g.step, g.variant, g.mailbox, g.sent, g.opened])).toEqual([
      [1, 1, o.ws.connector.account_email, 2, 1],
      [1, 2, o.mailboxB.account_email, 3, 1],
      [2, 1, o.ws.connector.account_email, 1, 0],
      [2, 2, o.ws.connector.account_email, 1, 1],
      [3, null, o.mailboxB.account_email, 1, 0],
    ]);
  });

  it('counts opens by mailbox with each mailbox its own denominators', async () => {
    const a = await tests('group_by=mailbox');
    expect(a.groups).toEqual(
      [
        {
          connector_id: o.ws.connector.id,
          mailbox: o.ws.connector.account_email,
          ...figures([4, 1, 1, 1, 1, 2, 2, 3, 2]),
        },
        { connector_id: o.mailboxB.id, mailbox: o.mailboxB.account_email, ...figures([4, 1, 0, 0, 0, 1, 0, 2, 2]) },
      ].sort((x, y) => (x.connector_id < y.connector_id ? -1 : 1)),
    );
  });

  it('puts sends near midnight on their own day in UTC and in America/Los_Angeles', async () => {
    const days = (a: any) => a.groups.map((g: any) => [g.day, g.sent, g.opened, g.clicked]);
    expect(days(await tests('group_by=day&from=2026-11-18&to=2026-11-24'))).toEqual([
      ['2026-11-20', 4, 2, 1],
      ['2026-11-21', 1, 0, 0],
      ['2026-11-22', 2, 1, 1],
      ['2026-11-23', 1, 0, 0],
    ]);
    const la = await tests('group_by=day&from=2026-11-18&to=2026-11-24&timezone=America/Los_Angeles');
    expect(days(la)).toEqual([
      ['2026-11-19', 1, 1, 1],
      ['2026-11-20', 4, 1, 0],
      ['2026-11-21', 1, 1, 0],
      ['2026-11-22', 1, 0, 1],
      ['2026-11-23', 1, 0, 0],
    ]);
    expect((await tests('to=2026-11-19')).totals.sent).toBe(0);
    expect((await tests('to=2026-11-19&timezone=America/Los_Angeles')).totals).toEqual(
      figures([1, 0, 1, 0, 0, 1, 1, 1, 1]),
    );
  });

  it('counts only messages to leads now in the stages asked for, and the leads counted by stage', async () => {
    expect((await tests('')).stages).toEqual(everyStage);
    const a = await tests('group_by=step,variant&lead_stage=interested,meeting_booked');
    expect(a.groups).toEqual([
      { step: 1, variant: 1, ...figures([1, 0, 1, 0, 0, 1, 1, 1, 1]) },
      { step: 2, variant: 1, ...figures([1, 0, 0, 1, 0, 0, 1, 1, 1]) },
      { step: 3, variant: null, ...figures([1, 0, 0, 0, 0, 0, 0, 0, 0]) },
    ]);
    expect(a.stages).toEqual({ ...noStages, interested: 1, meeting_booked: 1 });
    const none = await tests('lead_stage=new');
    expect([none.totals.sent, none.stages]).toEqual([0, noStages]);
  });

  it('shows each step with variants as decided with its recorded decision, testing, or off', async () => {
    expect((await tests('')).variant_tests).toEqual([
      { step: 1, status: 'decided', decision },
      { step: 2, status: 'testing', decision: null },
    ]);
    expect((await get(`/api/v1/sequences/${o.cold}/analytics`)).variant_tests).toEqual([
      { step: 1, status: 'off', decision: null },
    ]);
  });

  it('agrees with list_sent_messages group by group', async () => {
    const messages: any[] = [];
    let cursor = '';
    do {
      const page = await get(`/api/v1/sent-messages?sequence_id=${o.tests}&limit=3${cursor}`);
      messages.push(...page.data);
      cursor = page.next_cursor ? `&cursor=${page.next_cursor}` : '';
    } while (cursor);
    expect(messages).toHaveLength(10);
    const counted = messages.filter(
      (m) => m.status === 'sent' || (m.status === 'failed' && m.error_code === 'bounced'),
    );
    const a = await tests('group_by=step,variant');
    for (const group of a.groups) {
      const mine = counted.filter((m) => m.step === group.step && m.variant === group.variant);
      expect([group.sent, group.bounced, group.replied, group.auto_replied, group.opened, group.clicked]).toEqual([
        mine.length,
        mine.filter((m) => m.status === 'failed' || m.reply_state === 'bounced').length,
        mine.filter((m) => m.reply_state === 'replied').length,
        mine.filter((m) => m.reply_state === 'auto_replied').length,
        mine.filter((m) => m.opened_at !== null).length,
        mine.filter((m) => m.clicked_at !== null).length,
      ]);
    }
    expect(a.totals.sent).toBe(counted.length);
  });
});

describe('get_outreach_analytics with stages', () => {
  it('counts a lead reached by two sequences once in stages', async () => {
    const a = await outreach('group_by=sequence');
    expect(a.totals).toEqual(figures([9, 2, 2, 1, 1, 3, 2, 5, 4]));
    expect(a.stages).toEqual(everyStage);
    expect(a).not.toHaveProperty('variant_tests');
  });

  it('filters every sequence by lead stage', async () => {
    const a = await outreach('group_by=sequence&lead_stage=won');
    const bySequence = new Map(a.groups.map((g: any) => [g.sequence_name, [g.sent, g.bounced, g.replied]]));
    expect(Object.fromEntries(bySequence)).toEqual({ Cold: [1, 0, 1], Tests: [1, 1, 0] });
    expect(a.stages).toEqual({ ...noStages, won: 1 });
  });

  it('answers "which step and which variant gets replies, opens and clicks" in one MCP call', async () => {
    agent = await connectAgent(server.url, o.key);
    const overMcp = await agent.ok('get_sequence_analytics', {
      sequence_id: o.tests,
      group_by: ['step', 'variant'],
      lead_stage: ['interested', 'not_interested', 'won', 'lost', 'meeting_booked', 'contacted'],
    });
    const overHttp = await tests('group_by=step,variant');
    expect(overMcp.groups).toEqual(overHttp.groups);
    expect(overMcp.variant_tests).toEqual(overHttp.variant_tests);
    expect(overMcp.groups.map((g: any) => [g.step, g.variant, g.reply_rate, g.open_rate, g.click_rate])).toEqual([
      [1, 1, 1, 1, 1],
      [1, 2, 0, 0.5, 0],
      [2, 1, 0, 0, 1],
      [2, 2, 0, 1, null],
      [3, null, 0, null, null],
    ]);
  });
});

// Last: it deletes a lead of the shared fixture.
describe('analytics after a lead is deleted', () => {
  it("counts the deleted lead's messages in the figures, in no stage, and under no lead_stage filter", async () => {
    const res = await t.request(`/api/v1/leads/${o.lead(4)}`, { method: 'DELETE', token: o.key });
    expect(res.status).toBe(200);
    const a = await tests('');
    expect(a.totals).toEqual(figures([8, 2, 1, 1, 1, 3, 2, 5, 4]));
    expect(a.stages).toEqual({ ...everyStage, lost: 0 });
    expect((await tests('lead_stage=lost')).totals.sent).toBe(0);
  });
});
