// auto_select_winner on synthetic outcomes: message rows seeded with what came back to them, then the
// dispatcher's pass. A significant difference picks the winner (recorded with its numbers and p-value, as an
// event, and the step's still-scheduled messages switch to it); too few delivered messages or no significance
// pick nothing; two dispatchers decide a step once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { dispatchDue } from '../../../src/handlers/sequences/sender.ts';
import { decideVariantWinners } from '../../../src/handlers/sequences/select-variant-winners.ts';
import { approvedSequence, json, readyWorkspace, type Workspace } from './sequence-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
const now = new Date('2026-11-24T10:00:00Z');
let ws: Workspace;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({
    jobs: 'enqueue',
    clock: { now: () => now },
    env: { SEQUENCE_SEND_SPACING_MS: '0' },
  }));
  ws = await readyWorkspace(t, [{ email: 'grace@example.com', first_name: 'Grace', company: 'Navy' }]);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const token = () => ws.owner.token;

/** Launched with one real lead; step 1 tests A (weight 100) against B (weight 1). */
async function testingSequence(rule: Record<string, unknown> = { metric: 'reply_rate' }): Promise<string> {
  const seq = await approvedSequence(t, ws, {
    name: 'Winner test',
    sender_connector_id: ws.connector.id,
    schedule: { timezone: 'UTC', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start_hour: 0, end_hour: 24 },
    daily_limit: 100,
    auto_select_winner: rule,
    steps: [
      {
        variants: [
          { subject: 'A for {{company}}', body: 'Variant A.', weight: 100 },
          { subject: 'B for {{company}}', body: 'Variant B.', weight: 1 },
        ],
      },
    ],
  });
  await json(
    t.request(`/api/v1/sequences/${seq.id}/launch`, {
      method: 'POST',
      token: token(),
      json: { enroll: { lead_ids: [ws.leads[0].id] } },
    }),
  );
  return seq.id;
}

let seeded = 0;

interface Outcome {
  variant: number;
  count: number;
  status?: 'sent' | 'scheduled' | 'claimed';
  reply_state?: 'replied' | 'bounced' | null;
  tracked_clicks?: boolean;
  clicked?: boolean;
}

/** `count` enrollments of the sequence, each with a step-1 message of `variant` that ended as told. */
async function seed(sequenceId: string, o: Outcome): Promise<void> {
  const sql = t.deps.db.sql;
  const tag = `seed${++seeded}`;
  const status = o.status ?? 'sent';
  const sentAt = status === 'sent' ? now : null;
  await sql`
    insert into sequence_enrollments (id, workspace_id, sequence_id, lead_id, status, enrolled_at, updated_at)
    select ${`enr_${tag}_`} || g, ${ws.owner.workspaceId}, ${sequenceId}, null, 'active', ${now}, ${now}
    from generate_series(1, ${o.count}) g`;
  await sql`
    insert into sequence_messages (id, workspace_id, sequence_id, enrollment_id, step, variant, connector_id, mode, status,
      claim_token, claimed_at, scheduled_at, sent_at, reply_state, tracked_clicks, clicked_at, created_at, updated_at)
    select ${`msg_${tag}_`} || g, ${ws.owner.workspaceId}, ${sequenceId}, ${`enr_${tag}_`} || g, 1, ${o.variant},
      ${ws.connector.id}, 'sandbox', ${status}, ${status === 'claimed' ? 'held' : null}, ${status === 'claimed' ? now : null},
      ${now}, ${sentAt}, ${o.reply_state ?? null}, ${o.tracked_clicks ?? false}, ${o.clicked ? now : null}, ${now}, ${now}
    from generate_series(1, ${o.count}) g`;
}

/** Sent messages of a variant, `successes` of them replied (or clicked, with `click`). */
async function outcomes(sequenceId: string, variant: number, delivered: number, successes: number, click = false) {
  const base = click ? { tracked_clicks: true } : {};
  await seed(sequenceId, {
    variant,
    count: successes,
    ...base,
    ...(click ? { clicked: true } : { reply_state: 'replied' }),
  });
  await seed(sequenceId, { variant, count: delivered - successes, ...base });
}

const sequence = (id: string) => json(t.request(`/api/v1/sequences/${id}`, { token: token() }));
const selectedEvents = async (id: string) =>
  (
    await json(t.request('/api/v1/events?type=email_sequence.variant_selected&limit=100', { token: token() }))
  ).data.filter((e: any) => e.data.sequence_id === id);
const variantsByStatus = async (id: string) =>
  t.deps.db.sql<{ status: string; variant: number; n: number }[]>`
    select status, variant, count(*)::int as n from sequence_messages
    where sequence_id = ${id} and lead_id is null group by status, variant order by status, variant`;

describe('auto_select_winner', () => {
  it('picks the significantly better variant, records the decision and its event, and switches the scheduled messages', async () => {
    const id = await testingSequence({ metric: 'reply_rate', min_sends_per_variant: 100, confidence: 0.95 });
    await outcomes(id, 1, 100, 10);
    await outcomes(id, 2, 100, 30);
    await seed(id, { variant: 1, count: 3, status: 'scheduled' });
    await seed(id, { variant: 1, count: 2, status: 'claimed' });

    await dispatchDue(t.deps);
    const decision = {
      step: 1,
      variant: 2,
      label: 'B',
      metric: 'reply_rate',
      p_value: expect.closeTo(0.0004069520174449609, 9),
      confidence: 0.95,
      decided_at: now.toISOString(),
      variants: [
        { variant: 1, delivered: 100, successes: 10, rate: 0.1 },
        { variant: 2, delivered: 100, successes: 30, rate: 0.3 },
      ],
    };
    expect((await sequence(id)).variant_winners).toEqual([decision]);
    const events = await selectedEvents(id);
    expect(events).toHaveLength(1);
    expect(events[0].data).toEqual({ sequence_id: id, ...decision, switched_messages: 3 });
    expect(await variantsByStatus(id)).toEqual([
      { status: 'claimed', variant: 1, n: 2 },
      { status: 'scheduled', variant: 2, n: 3 },
      { status: 'sent', variant: 1, n: 100 },
      { status: 'sent', variant: 2, n: 100 },
    ]);
    // The real lead's message, made on the same pass after the decision, gets the winner despite weight 1.
    const made = await json(
      t.request(`/api/v1/sent-messages?sequence_id=${id}&lead_id=${ws.leads[0].id}`, { token: token() }),
    );
    expect(made.data).toEqual([expect.objectContaining({ step: 1, variant: 2, status: 'scheduled' })]);

    await dispatchDue(t.deps);
    expect((await sequence(id)).variant_winners).toHaveLength(1);
    expect(await selectedEvents(id)).toHaveLength(1);
  });

  it('keeps testing without significance', async () => {
    const id = await testingSequence({ metric: 'reply_rate', min_sends_per_variant: 100 });
    await outcomes(id, 1, 100, 12);
    await outcomes(id, 2, 100, 10);
    await seed(id, { variant: 2, count: 2, status: 'scheduled' });
    await dispatchDue(t.deps);
    expect((await sequence(id)).variant_winners).toEqual([]);
    expect(await selectedEvents(id)).toEqual([]);
    expect((await variantsByStatus(id)).filter((r) => r.status === 'scheduled')).toEqual([
      { status: 'scheduled', variant: 2, n: 2 },
    ]);
  });

  it('waits until every variant has the minimum of delivered messages, a bounce not counting as delivered', async () => {
    const id = await testingSequence({ metric: 'reply_rate', min_sends_per_variant: 100 });
    await outcomes(id, 1, 100, 10);
    await outcomes(id, 2, 99, 40);
    await seed(id, { variant: 2, count: 1, reply_state: 'bounced' });
    await dispatchDue(t.deps);
    expect((await sequence(id)).variant_winners).toEqual([]);

    await seed(id, { variant: 2, count: 1 });
    await dispatchDue(t.deps);
    const [decision] = (await sequence(id)).variant_winners;
    expect(decision).toMatchObject({ step: 1, variant: 2, p_value: expect.closeTo(9.6335700864309e-7, 12) });
    expect(decision.variants[1]).toEqual({ variant: 2, delivered: 100, successes: 40, rate: 0.4 });
  });

  it('counts clicks over the delivered messages whose links were tracked', async () => {
    const id = await testingSequence({ metric: 'click_rate', min_sends_per_variant: 100 });
    await outcomes(id, 1, 100, 5, true);
    await outcomes(id, 2, 100, 25, true);
    await seed(id, { variant: 2, count: 50 });
    await dispatchDue(t.deps);
    expect((await sequence(id)).variant_winners).toEqual([
      expect.objectContaining({
        variant: 2,
        metric: 'click_rate',
        p_value: expect.closeTo(7.476475346732556e-5, 10),
        variants: [
          { variant: 1, delivered: 100, successes: 5, rate: 0.05 },
          { variant: 2, delivered: 100, successes: 25, rate: 0.25 },
        ],
      }),
    ]);
  });

  it('decides a step once when two dispatchers look at it together', async () => {
    const id = await testingSequence();
    await outcomes(id, 1, 100, 10);
    await outcomes(id, 2, 100, 30);
    const made = await Promise.all([
      decideVariantWinners(t.deps, ws.owner.workspaceId, id),
      decideVariantWinners(t.deps, ws.owner.workspaceId, id),
    ]);
    expect(made.flat()).toHaveLength(1);
    expect((await sequence(id)).variant_winners).toHaveLength(1);
    expect(await selectedEvents(id)).toHaveLength(1);
  });
});
