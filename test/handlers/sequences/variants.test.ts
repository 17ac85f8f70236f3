// A/B variants of sequence steps over REST in sandbox mode: writing them (and the errors), the preview that
// renders every variant, the checks run on each, one approval for all of them, and sending: each enrollment
// its deterministic variant, kept through a retry, answered in the thread with the step-1 subject it got,
// and chosen again over the current variants when an edit removed its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { findConnector } from '../../../src/handlers/connectors/connectors-data.ts';
import { claimForMailbox, dispatchDue, sweepDeadSenders } from '../../../src/handlers/sequences/sender.ts';
import { assignVariant } from '../../../src/handlers/sequences/variants.ts';
import { approvedSequence, drain, json, readyWorkspace, relogin, type Workspace } from './sequence-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let now = new Date('2026-11-24T10:00:00Z');
let ws: Workspace;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({
    jobs: 'enqueue',
    clock: { now: () => now },
    env: { SEQUENCE_SEND_SPACING_MS: '0' },
  }));
  ws = await readyWorkspace(t, [
    { email: 'grace@example.com', first_name: 'Grace', company: 'Navy' },
    { email: 'alan@example.com', first_name: 'Alan', company: 'Bletchley' },
    { email: 'ada@example.com', first_name: 'Ada', company: 'Engine' },
    { email: 'linus@example.com', first_name: 'Linus', company: 'Kernel' },
    { email: 'barbara@example.com', first_name: 'Barbara', company: 'Clu' },
    { email: 'ken@example.com', first_name: 'Ken', company: 'Bell' },
  ]);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const ALWAYS = {
  timezone: 'UTC',
  days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  start_hour: 0,
  end_hour: 24,
};

/** Step 1 tests two subjects (B three times as often); step 2, in the thread, three follow-ups. */
const abSequence = (connectorId: string, extra: Record<string, unknown> = {}) => ({
  name: 'A/B intro',
  sender_connector_id: connectorId,
  schedule: ALWAYS,
  daily_limit: 100,
  steps: [
    {
      variants: [
        { subject: 'Quick question, {{first_name}}', body: 'Variant A for {{company}}.' },
        { subject: 'An idea for {{company}}', body: 'Variant B for {{company}}.', weight: 3 },
      ],
    },
    {
      wait_days: 2,
      variants: [
        { body: 'Follow-up A, {{first_name}}.' },
        { body: 'Follow-up B, {{first_name}}.' },
        { subject: 'Another thought', body: 'Follow-up C, {{first_name}}.' },
      ],
    },
  ],
  ...extra,
});

const token = () => ws.owner.token;
const create = (body: unknown) => t.request('/api/v1/sequences', { method: 'POST', token: token(), json: body });
const get = (id: string) => json(t.request(`/api/v1/sequences/${id}`, { token: token() }));
const sentMessages = async (id: string) =>
  (await json(t.request(`/api/v1/sent-messages?sequence_id=${id}&limit=100`, { token: token() }))).data as any[];
const launch = (id: string, leadIds: string[]) =>
  json(
    t.request(`/api/v1/sequences/${id}/launch`, {
      method: 'POST',
      token: token(),
      json: { enroll: { lead_ids: leadIds } },
    }),
  );
const leadIds = () => ws.leads.map((l) => l.id);

describe('writing variants', () => {
  it('stores each variant with its label and weight, step 1 and the step mirroring variant A', async () => {
    const seq = await json(create(abSequence(ws.connector.id)), 201);
    expect(seq.steps[0]).toEqual({
      position: 1,
      wait_days: 0,
      subject: 'Quick question, {{first_name}}',
      body: 'Variant A for {{company}}.',
      in_thread: false,
      variants: [
        {
          variant: 1,
          label: 'A',
          subject: 'Quick question, {{first_name}}',
          body: 'Variant A for {{company}}.',
          weight: 1,
        },
        { variant: 2, label: 'B', subject: 'An idea for {{company}}', body: 'Variant B for {{company}}.', weight: 3 },
      ],
    });
    expect(seq.steps[1].variants.map((v: any) => [v.label, v.subject])).toEqual([
      ['A', null],
      ['B', null],
      ['C', 'Another thought'],
    ]);
    expect(seq).toMatchObject({ auto_select_winner: null, variant_winners: [] });
  });

  it('fills in the winner rule and gives variants without a subject the step subject', async () => {
    const body = abSequence(ws.connector.id, { auto_select_winner: { metric: 'reply_rate' } });
    body.steps[0] = {
      subject: 'Shared subject',
      variants: [{ body: 'One' }, { body: 'Two' }, { subject: 'Own', body: 'Three' }],
    } as never;
    const seq = await json(create(body), 201);
    expect(seq.auto_select_winner).toEqual({ metric: 'reply_rate', min_sends_per_variant: 100, confidence: 0.95 });
    expect(seq.steps[0].variants.map((v: any) => v.subject)).toEqual(['Shared subject', 'Shared subject', 'Own']);
  });

  it.each<[string, (steps: any[]) => void, string]>([
    ['a body beside variants', (s) => Object.assign(s[1], { body: 'Also a body' }), '/steps/1/variants'],
    ['neither a body nor variants', (s) => delete s[1].variants, '/steps/1/body'],
    [
      'a variant without a subject outside the thread',
      (s) => delete s[0].variants[1].subject,
      '/steps/0/variants/1/subject',
    ],
    [
      'an unknown variable in one variant',
      (s) => (s[0].variants[1].body = 'Hi {{nickname}}'),
      '/steps/0/variants/1/body',
    ],
    ['one variant alone', (s) => s[0].variants.pop(), '/steps/0/variants'],
  ])('answers 400 naming the field for %s', async (_name, change, pointer) => {
    const body = abSequence(ws.connector.id);
    change(body.steps);
    const problem = await json(create(body), 400);
    expect(problem.errors.map((e: any) => e.pointer ?? e.field)).toContain(pointer);
  });
});

describe('preview and checks', () => {
  it('renders every variant of every step for each lead, answering the thread with step 1 subject', async () => {
    const seq = await json(create(abSequence(ws.connector.id)), 201);
    const preview = await json(
      t.request(`/api/v1/sequences/${seq.id}/preview`, {
        method: 'POST',
        token: token(),
        json: { lead_ids: [ws.leads[0].id] },
      }),
    );
    const messages = preview.leads[0].messages;
    expect(messages.map((m: any) => [m.position, m.variant, m.subject])).toEqual([
      [1, 1, 'Quick question, Grace'],
      [1, 2, 'An idea for Navy'],
      [2, 1, 'Re: Quick question, Grace'],
      [2, 2, 'Re: Quick question, Grace'],
      [2, 3, 'Another thought'],
    ]);
    expect(messages[1].text).toContain('Variant B for Navy.');
    expect(messages[4].text).toContain('Follow-up C, Grace.');
    // Variant C sets its own subject in the thread: the check names it.
    const differs = preview.checks.filter((c: any) => c.code === 'thread_subject_differs');
    expect(differs).toEqual([
      expect.objectContaining({ step: 2, message: expect.stringMatching(/^Step 2 variant C /) }),
    ]);
  });

  it('reports a variable missing in one variant with its step and variant, and enrollment skips such a lead', async () => {
    const body = abSequence(ws.connector.id);
    body.steps[1].variants[1].body = 'Follow-up B in {{custom.region}}.';
    const seq = await approvedSequence(t, ws, body);
    const preview = await json(
      t.request(`/api/v1/sequences/${seq.id}/preview`, {
        method: 'POST',
        token: token(),
        json: { lead_ids: [ws.leads[0].id] },
      }),
    );
    const unresolved = preview.checks.filter((c: any) => c.code === 'unresolved_variables');
    expect(unresolved).toEqual([
      expect.objectContaining({
        step: 2,
        lead_id: ws.leads[0].id,
        message: expect.stringMatching(
          /^Step 2 variant B cannot be sent to grace@example.com: no value for \{\{custom.region\}\}/,
        ),
      }),
    ]);
    // A lead is enrolled only with values for every variant it could get.
    const refused = await json(
      t.request(`/api/v1/sequences/${seq.id}/launch`, {
        method: 'POST',
        token: token(),
        json: { enroll: { lead_ids: [ws.leads[0].id] } },
      }),
      409,
    );
    expect(refused).toMatchObject({ code: 'no_enrollments', detail: expect.stringContaining('1 missing_variable') });
  });

  it('blocks a variant with an empty body, by name', async () => {
    const body = abSequence(ws.connector.id);
    body.steps[0].variants[1].body = '   ';
    const seq = await json(create(body), 201);
    const preview = await json(t.request(`/api/v1/sequences/${seq.id}/preview`, { method: 'POST', token: token() }));
    expect(preview.checks).toContainEqual(
      expect.objectContaining({
        code: 'empty_step',
        severity: 'blocking',
        step: 1,
        message: 'Step 1 variant B has an empty body.',
      }),
    );
  });
});

describe('approval', () => {
  it('covers every variant of the approved revision, and an edit of one variant voids it', async () => {
    const seq = await approvedSequence(t, ws, abSequence(ws.connector.id));
    expect(seq.approval).toMatchObject({ decision: 'approved', revision: 1 });
    const launched = await launch(seq.id, [ws.leads[0].id]);
    expect(launched.sequence.status).toBe('active');
    await json(t.request(`/api/v1/sequences/${seq.id}/pause`, { method: 'POST', token: token() }));

    const steps = abSequence(ws.connector.id).steps;
    steps[1].variants[1].body = 'A rewritten follow-up B.';
    const edited = await json(
      t.request(`/api/v1/sequences/${seq.id}`, {
        method: 'PATCH',
        token: token(),
        headers: { 'If-Match': '"1"' },
        json: { steps },
      }),
    );
    expect(edited).toMatchObject({ revision: 2, approval: null });
    expect(edited.steps[1].variants[1].body).toBe('A rewritten follow-up B.');
    const refused = await json(
      t.request(`/api/v1/sequences/${seq.id}/resume`, { method: 'POST', token: token() }),
      409,
    );
    expect(refused.code).toBe('sequence_not_approved');
  });
});

describe('sending variants', () => {
  it('sends each enrollment its variant, shows it on the message, and threads step 2 under the step-1 subject it got', async () => {
    const seq = await approvedSequence(t, ws, abSequence(ws.connector.id));
    await launch(seq.id, leadIds());
    await drain(t);
    const first = await sentMessages(seq.id);
    expect(first).toHaveLength(ws.leads.length);
    const inbox = (
      await json(t.request(`/api/v1/sandbox/messages?connector_id=${ws.connector.id}&limit=100`, { token: token() }))
    ).data as any[];
    for (const m of first) {
      expect(m).toMatchObject({ status: 'sent', step: 1, variant: assignVariant(m.enrollment_id, 1, [1, 3]) });
      const mail = inbox.find((x) => x.message_id === m.message_id);
      expect(mail.subject).toBe(m.subject);
      expect(mail.subject).toMatch(m.variant === 1 ? /^Quick question, / : /^An idea for /);
      expect(mail.text).toContain(m.variant === 1 ? 'Variant A for' : 'Variant B for');
    }

    now = new Date(now.getTime() + 2 * 86_400_000 + 60_000);
    await relogin(t, ws);
    await drain(t);
    const second = (await sentMessages(seq.id)).filter((m) => m.step === 2);
    expect(second).toHaveLength(ws.leads.length);
    for (const m of second) {
      const variant = assignVariant(m.enrollment_id, 2, [1, 1, 1]);
      const got = first.find((f) => f.enrollment_id === m.enrollment_id);
      expect(m).toMatchObject({ status: 'sent', variant });
      expect(m.subject).toBe(variant === 3 ? 'Another thought' : `Re: ${got.subject}`);
    }
  });

  it('keeps the variant of a message whose claim was released and sent later', async () => {
    const seq = await approvedSequence(t, ws, abSequence(ws.connector.id));
    await launch(seq.id, leadIds().slice(0, 3));
    await dispatchDue(t.deps);
    const made = await sentMessages(seq.id);
    const connector = await findConnector(t.deps.db.sql, ws.owner.workspaceId, ws.connector.id);
    const held = await claimForMailbox(t.deps, connector!);
    expect(held.map((h) => h.message.id).sort()).toEqual(made.map((m) => m.id).sort());
    // The sender died holding them: the sweep puts them back, and another pass sends them.
    expect((await sweepDeadSenders(t.deps, new Date(now.getTime() + 1000), 0)).released).toBe(3);
    await drain(t);
    const sent = await sentMessages(seq.id);
    for (const m of sent) {
      expect(m.status).toBe('sent');
      expect(m.variant).toBe(made.find((x) => x.id === m.id).variant);
      expect(m.variant).toBe(assignVariant(m.enrollment_id, 1, [1, 3]));
    }
  });

  it('chooses again over the current variants when a paused edit removed the variant a message had', async () => {
    const body = abSequence(ws.connector.id);
    body.steps[0].variants.push({ subject: 'Third way, {{first_name}}', body: 'Variant C.', weight: 100 });
    const seq = await approvedSequence(t, ws, body);
    await launch(seq.id, leadIds());
    await dispatchDue(t.deps);
    const made = await sentMessages(seq.id);
    const hadC = made.filter((m) => m.variant === 3);
    expect(hadC.length).toBeGreaterThan(0);

    await json(t.request(`/api/v1/sequences/${seq.id}/pause`, { method: 'POST', token: token() }));
    await json(
      t.request(`/api/v1/sequences/${seq.id}`, {
        method: 'PATCH',
        token: token(),
        headers: { 'If-Match': '"1"' },
        json: { steps: abSequence(ws.connector.id).steps },
      }),
    );
    const submitted = await json(t.request(`/api/v1/sequences/${seq.id}/submit`, { method: 'POST', token: token() }));
    await json(
      t.request(`/api/v1/sequences/${seq.id}/approve`, {
        method: 'POST',
        token: token(),
        json: { revision: submitted.revision },
      }),
    );
    await json(t.request(`/api/v1/sequences/${seq.id}/resume`, { method: 'POST', token: token() }));
    await drain(t);
    const sent = await sentMessages(seq.id);
    for (const m of sent) {
      const had = made.find((x) => x.id === m.id).variant;
      const want = had === 3 ? assignVariant(m.enrollment_id, 1, [1, 3]) : had;
      expect(m).toMatchObject({ status: 'sent', variant: want });
      expect(m.subject).toMatch(want === 1 ? /^Quick question, / : /^An idea for /);
    }
  });
});
