// A workspace whose messages are written straight into sequence_messages, with the columns the tracking and
// A/B helpers fill (variant, tracked_opens/_clicks, opened_at, clicked_at) and the variants and decisions the
// A/B selection keeps on the sequence: analytics reads them as data, so the fixture sets them as data. Leads,
// mailboxes, sequences and stages go through the API.
//
//   Tests (mailboxes A and B; steps 1 and 2 with variants, auto_select_winner on; step 1 decided)
//     id   lead step var box sent (UTC)         outcome                 open/click  tracked
//     m1   L1   1    1   A   11-20 07:30 (LA 19th) replied             open+click  opens+clicks
//     m2   L2   1    2   B   11-20 12:00          -                     open        opens+clicks
//     m3   L3   1    1   A   11-20 12:00 attempt  refused at once       -           opens+clicks
//     m11  L6   1    2   B   11-20 13:00          -                     -           opens+clicks
//     m4   L4   1    2   B   11-21 03:00 (LA 20th) bounced later        -           opens+clicks
//     m5   L1   2    1   A   11-22 08:00 (LA 22nd 00:00) auto-reply     click       opens+clicks
//     m6   L2   2    2   A   11-22 07:59 (LA 21st 23:59) unsubscribe    open        opens
//     m7   L5   3    -   B   11-23 10:00          -                     -           none
//     m8   L6   2    1   A   scheduled (not counted);  m9  L5  1  2  A  failed, smtp error (not counted)
//   Cold (mailbox B, step 1 with variants, no auto_select_winner): m10 L3 step 1 v1 11-23 10:00 replied, untracked.
//   Stages now: L1 interested, L2 not_interested, L3 won, L4 lost, L5 meeting_booked, L6 contacted.
import type { TestApp } from '../../helpers/app.ts';
import type { Connector } from '../connectors/human.ts';
import { connectGmail, json, readyWorkspace, type Workspace } from '../sequences/sequence-fixtures.ts';

export interface Seeded {
  ws: Workspace;
  key: string;
  mailboxB: Connector;
  tests: string;
  cold: string;
  lead: (n: number) => string;
}

export const decision = {
  step: 1,
  variant: 2,
  label: 'B',
  metric: 'reply_rate',
  p_value: 0.012,
  confidence: 0.95,
  decided_at: '2026-11-22T09:00:00.000Z',
  variants: [
    { variant: 1, delivered: 120, successes: 6, rate: 0.05 },
    { variant: 2, delivered: 118, successes: 17, rate: 0.1441 },
  ],
};

const STAGES = ['interested', 'not_interested', 'won', 'lost', 'meeting_booked', 'contacted'];

const variantsOf = (step: number) =>
  ['A', 'B'].map((label, i) => ({ variant: i + 1, label, subject: `S${step}${label}`, body: 'Hi.', weight: 1 }));

type Seed = {
  id: string;
  lead: number;
  step: number;
  variant: number | null;
  box: 'A' | 'B';
  at: string;
  status?: 'sent' | 'bounced_at_once' | 'scheduled' | 'smtp_failed';
  reply?: 'replied' | 'auto_replied' | 'bounced' | 'unsubscribe_request';
  opened?: boolean;
  clicked?: boolean;
  tracked: 'both' | 'opens' | 'none';
};

const TESTS: Seed[] = [
  {
    id: 'm1',
    lead: 1,
    step: 1,
    variant: 1,
    box: 'A',
    at: '2026-11-20T07:30:00Z',
    reply: 'replied',
    opened: true,
    clicked: true,
    tracked: 'both',
  },
  { id: 'm2', lead: 2, step: 1, variant: 2, box: 'B', at: '2026-11-20T12:00:00Z', opened: true, tracked: 'both' },
  {
    id: 'm3',
    lead: 3,
    step: 1,
    variant: 1,
    box: 'A',
    at: '2026-11-20T12:00:00Z',
    status: 'bounced_at_once',
    tracked: 'both',
  },
  { id: 'm11', lead: 6, step: 1, variant: 2, box: 'B', at: '2026-11-20T13:00:00Z', tracked: 'both' },
  { id: 'm4', lead: 4, step: 1, variant: 2, box: 'B', at: '2026-11-21T03:00:00Z', reply: 'bounced', tracked: 'both' },
  {
    id: 'm5',
    lead: 1,
    step: 2,
    variant: 1,
    box: 'A',
    at: '2026-11-22T08:00:00Z',
    reply: 'auto_replied',
    clicked: true,
    tracked: 'both',
  },
  {
    id: 'm6',
    lead: 2,
    step: 2,
    variant: 2,
    box: 'A',
    at: '2026-11-22T07:59:00Z',
    reply: 'unsubscribe_request',
    opened: true,
    tracked: 'opens',
  },
  { id: 'm7', lead: 5, step: 3, variant: null, box: 'B', at: '2026-11-23T10:00:00Z', tracked: 'none' },
  {
    id: 'm8',
    lead: 6,
    step: 2,
    variant: 1,
    box: 'A',
    at: '2026-11-23T10:00:00Z',
    status: 'scheduled',
    tracked: 'both',
  },
  {
    id: 'm9',
    lead: 5,
    step: 1,
    variant: 2,
    box: 'A',
    at: '2026-11-19T10:00:00Z',
    status: 'smtp_failed',
    tracked: 'both',
  },
];
const COLD: Seed[] = [
  { id: 'm10', lead: 3, step: 1, variant: 1, box: 'B', at: '2026-11-23T10:00:00Z', reply: 'replied', tracked: 'none' },
];

const person = (n: number) => ({ email: `lead${n}@l${n}.example`, first_name: `Lead${n}` });
const sixLeads = [1, 2, 3, 4, 5, 6].map(person);

export async function seededWorkspace(t: TestApp): Promise<Seeded> {
  const ws = await readyWorkspace(t, sixLeads);
  const key = (await t.createKey(ws.owner.token, 'analytics')).key;
  const mailboxB = await connectGmail(t, ws.owner.token, `b.${ws.owner.email.split('@')[0]}@sandbox.example`);
  const lead = (n: number) => ws.leads.find((l) => l.email === person(n).email)?.id as string;
  const post = (path: string, body: unknown, status = 200) =>
    json(t.request(path, { method: 'POST', token: key, json: body }), status);
  const step = (subject: string) => ({ subject, body: 'Hello.' });
  const tests = await post('/api/v1/sequences', { name: 'Tests', steps: [step('a'), step('b'), step('c')] }, 201);
  const cold = await post('/api/v1/sequences', { name: 'Cold', steps: [step('a')] }, 201);
  for (const [i, stage] of STAGES.entries()) await post(`/api/v1/leads/${lead(i + 1)}/stage`, { stage });

  const sql = t.deps.db.sql;
  const withVariants = (steps: any[], stepsWithVariants: number[]) =>
    steps.map((s, i) => (stepsWithVariants.includes(i + 1) ? { ...s, variants: variantsOf(i + 1) } : s));
  const [row] = await sql`select steps from sequences where id = ${tests.id}`;
  await sql`update sequences set steps = ${sql.json(withVariants(row.steps, [1, 2]))},
      auto_select_winner = ${sql.json({ metric: 'reply_rate', min_sends_per_variant: 100, confidence: 0.95 })},
      variant_winners = ${sql.json([decision])}
    where id = ${tests.id}`;
  const [coldRow] = await sql`select steps from sequences where id = ${cold.id}`;
  await sql`update sequences set steps = ${sql.json(withVariants(coldRow.steps, [1]))} where id = ${cold.id}`;

  const boxes = { A: ws.connector.id, B: mailboxB.id };
  const seed = async (sequenceId: string, seeds: Seed[]) => {
    for (const n of new Set(seeds.map((s) => s.lead)))
      await sql`insert into sequence_enrollments (id, workspace_id, sequence_id, lead_id, status, enrolled_at, updated_at)
        values (${`enr_${sequenceId}_${n}`}, ${ws.owner.workspaceId}, ${sequenceId}, ${lead(n)}, 'completed',
          '2026-11-19T00:00:00Z', '2026-11-19T00:00:00Z')`;
    for (const s of seeds) await insertMessage(t, ws.owner.workspaceId, sequenceId, boxes[s.box], lead(s.lead), s);
  };
  await seed(tests.id, TESTS);
  await seed(cold.id, COLD);
  return { ws, key, mailboxB, tests: tests.id, cold: cold.id, lead };
}

async function insertMessage(
  t: TestApp,
  workspaceId: string,
  sequenceId: string,
  box: string,
  leadId: string,
  s: Seed,
) {
  const sql = t.deps.db.sql;
  const at = new Date(s.at);
  const later = new Date(at.getTime() + 3_600_000);
  const status = { sent: 'sent', bounced_at_once: 'failed', scheduled: 'scheduled', smtp_failed: 'failed' }[
    s.status ?? 'sent'
  ];
  const sent = status === 'sent';
  const errorCode = s.status === 'bounced_at_once' ? 'bounced' : s.status === 'smtp_failed' ? 'smtp_error' : null;
  await sql`
    insert into sequence_messages (id, workspace_id, sequence_id, enrollment_id, lead_id, step, variant, connector_id,
      mode, to_email, subject, status, scheduled_at, sending_at, sent_at, attempts, reply_state, replied_at,
      error_code, tracked_opens, tracked_clicks, opened_at, clicked_at, created_at, updated_at)
    values (${`msg_${s.id.padStart(26, '0')}`}, ${workspaceId}, ${sequenceId}, ${`enr_${sequenceId}_${s.lead}`},
      ${leadId}, ${s.step}, ${s.variant}, ${box}, 'sandbox', ${`lead${s.lead}@l${s.lead}.example`}, 'Hello',
      ${status}, ${at}, ${status === 'scheduled' ? null : at}, ${sent ? at : null}, ${status === 'scheduled' ? 0 : 1},
      ${s.reply ?? null}, ${s.reply ? later : null}, ${errorCode}, ${s.tracked !== 'none'}, ${s.tracked === 'both'},
      ${s.opened ? later : null}, ${s.clicked ? later : null}, ${at}, ${at})`;
}
