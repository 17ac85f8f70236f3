// A sequence from draft to sent messages over REST in sandbox mode: preview, submit, a person's approval,
// launch with enrollment, sending (dispatcher and mailbox sender run in process), the recorded MIME in the
// sandbox mailbox, the next step scheduled by its wait, and the sequence completing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import {
  approvedSequence,
  drain,
  json,
  readyWorkspace,
  relogin,
  twoSteps,
  type Workspace,
} from './sequence-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let now = new Date('2026-11-24T10:00:00Z');

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

describe('an email sequence from draft to sent', () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await readyWorkspace(t);
  });

  it('creates a draft with numbered steps, default window and revision 1', async () => {
    const seq = await json(
      t.request('/api/v1/sequences', {
        method: 'POST',
        token: ws.owner.token,
        json: { name: 'Draft', steps: [{ subject: 'Hi', body: 'Hello' }] },
      }),
      201,
    );
    expect(seq).toMatchObject({
      status: 'draft',
      revision: 1,
      daily_limit: 50,
      approval: null,
      approval_url: null,
      sender_connector_id: null,
    });
    expect(seq.schedule).toEqual({
      timezone: 'UTC',
      days: ['mon', 'tue', 'wed', 'thu', 'fri'],
      start_hour: 9,
      end_hour: 17,
    });
    expect(seq.steps).toEqual([{ position: 1, wait_days: 0, subject: 'Hi', body: 'Hello', in_thread: false }]);
    expect(seq.stats).toEqual({
      enrolled: 0,
      scheduled: 0,
      sent: 0,
      failed: 0,
      bounced: 0,
      unsubscribed: 0,
      uncertain: 0,
      replied: 0,
      auto_replied: 0,
      bounced_late: 0,
    });
  });

  it('previews every step rendered for real leads, with variables, fallbacks, markup and the footer', async () => {
    const seq = await json(
      t.request('/api/v1/sequences', { method: 'POST', token: ws.owner.token, json: twoSteps(ws.connector.id) }),
      201,
    );
    const preview = await json(
      t.request(`/api/v1/sequences/${seq.id}/preview`, {
        method: 'POST',
        token: ws.owner.token,
        json: { lead_ids: [ws.leads[0].id, ws.leads[2].id] },
      }),
    );
    expect(preview.checks.filter((c: any) => c.severity === 'blocking')).toEqual([]);
    const [grace, nobody] = preview.leads;
    expect(grace.messages[0].subject).toBe('Hello Grace at Navy');
    expect(grace.messages[0].html).toContain('<strong>Navy</strong>');
    expect(grace.messages[0].html).toContain('<em>pro</em>');
    expect(grace.messages[0].html).toContain('<a href="https://example.com/book">Book a call</a>');
    expect(grace.messages[0].html).toContain('<ul><li>fast</li><li>safe</li></ul>');
    expect(grace.messages[0].text).toContain('Book a call (https://example.com/book)');
    expect(grace.messages[0].text).toContain('Acme Ltd, 1 Main St, Springfield');
    expect(grace.messages[0].text).toMatch(/Unsubscribe: http:\/\/127\.0\.0\.1:\d+\/unsubscribe\//);
    expect(nobody.messages[0].subject).toBe('Hello there at Anon');
    expect(nobody.messages[1].text).toContain('Just checking in, friend.');
  });

  it('answers a waiting get_email_sequence at once when the person approved it before the call', async () => {
    // The agent submitted it and was told pending_approval; the person approved while it was away.
    const approved = await approvedSequence(t, ws);
    const call = json(t.request(`/api/v1/sequences/${approved.id}?wait_seconds=50`, { token: ws.owner.token }));
    const halfway = new Promise<string>((resolve) =>
      setTimeout(() => resolve('no answer at half the wait'), 25_000).unref(),
    );
    expect(await Promise.race([call, halfway])).toMatchObject({ id: approved.id, status: 'approved' });
  });

  it('goes through approval, launches with enrollment, sends step 1, then step 2 after its wait, and completes', async () => {
    const approved = await approvedSequence(t, ws);
    expect(approved).toMatchObject({
      status: 'approved',
      approval: { decision: 'approved', revision: 1, by: ws.owner.userId },
    });
    const launched = await json(
      t.request(`/api/v1/sequences/${approved.id}/launch`, {
        method: 'POST',
        token: ws.owner.token,
        json: { enroll: { lead_ids: ws.leads.map((l) => l.id) } },
      }),
    );
    expect(launched.already_active).toBe(false);
    expect(launched.sequence.status).toBe('active');
    expect(launched.enrollment.counts).toMatchObject({ considered: 3, enrolled: 3, skipped: 0 });

    await drain(t);
    const sent = await json(t.request(`/api/v1/sent-messages?sequence_id=${approved.id}`, { token: ws.owner.token }));
    expect(sent.data).toHaveLength(3);
    expect(
      sent.data.every((m: any) => m.status === 'sent' && m.step === 1 && m.mode === 'sandbox' && m.provider_message_id),
    ).toBe(true);

    const inbox = await json(
      t.request(`/api/v1/sandbox/messages?connector_id=${ws.connector.id}`, { token: ws.owner.token }),
    );
    const toGrace = inbox.data.find((m: any) => m.to === 'grace@example.com');
    expect(toGrace.subject).toBe('Hello Grace at Navy');
    expect(toGrace.html).toContain('<strong>Navy</strong>');
    expect(toGrace.text).toContain('Acme Ltd, 1 Main St, Springfield');
    expect(toGrace.message_id).toBe(sent.data.find((m: any) => m.to === 'grace@example.com').message_id);

    // Step 2 waits two days; nothing more goes out before then.
    await drain(t);
    expect(
      (await json(t.request(`/api/v1/sent-messages?sequence_id=${approved.id}`, { token: ws.owner.token }))).data,
    ).toHaveLength(3);
    now = new Date(now.getTime() + 2 * 86_400_000 + 60_000);
    await relogin(t, ws);
    await drain(t);
    const all = await json(
      t.request(`/api/v1/sent-messages?sequence_id=${approved.id}&status=sent`, { token: ws.owner.token }),
    );
    expect(all.data.map((m: any) => m.step).sort()).toEqual([1, 1, 1, 2, 2, 2]);
    const done = await json(t.request(`/api/v1/sequences/${approved.id}`, { token: ws.owner.token }));
    expect(done.status).toBe('completed');
    expect(done.stats).toMatchObject({ enrolled: 3, sent: 6, scheduled: 0, failed: 0, uncertain: 0 });
  });
});

describe('sandbox bounces', () => {
  it('refuses an address at a reserved .invalid domain as Gmail refuses a bad recipient, bouncing the lead', async () => {
    const ws = await readyWorkspace(t, [
      { email: 'ghost@nowhere.invalid', first_name: 'Ghost', company: 'None', custom_fields: { plan: 'x' } },
    ]);
    const seq = await approvedSequence(t, ws);
    await json(
      t.request(`/api/v1/sequences/${seq.id}/launch`, {
        method: 'POST',
        token: ws.owner.token,
        json: { enroll: { lead_ids: [ws.leads[0].id] } },
      }),
    );
    await drain(t);
    const [message] = (await json(t.request(`/api/v1/sent-messages?sequence_id=${seq.id}`, { token: ws.owner.token })))
      .data;
    expect(message).toMatchObject({ status: 'failed', error_code: 'bounced', mode: 'sandbox' });
    expect((await json(t.request(`/api/v1/leads/${ws.leads[0].id}`, { token: ws.owner.token }))).status).toBe(
      'bounced',
    );
  });
});
