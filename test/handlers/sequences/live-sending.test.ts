// Sending through the live code path against the strict fake Google: the MIME it records (multipart
// alternative, UTF-8 subject, Message-ID, RFC 8058 List-Unsubscribe headers), the one-click unsubscribe
// POST from those headers, the confirmation page's GET that unsubscribes nothing, a lead unsubscribed
// mid-sequence getting no further step, an expired connector pausing its sequences, and what each of
// Gmail's refusals (and its silence) does to a message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenLiveAgainstFakeGoogle, type LiveService } from '../connectors/live-service.ts';
import type { FakeGoogle } from '../connectors/fake-google.ts';
import {
  approvedSequence,
  drain,
  json,
  launchedOneStep,
  liveWorkspace,
  relogin,
  twoSteps,
} from './sequence-fixtures.ts';

let t: TestApp;
let google: FakeGoogle;
let server: { url: string; close(): Promise<void> };
let now = new Date('2026-11-24T10:00:00Z');

let live: LiveService;
beforeAll(async () => {
  live = await listenLiveAgainstFakeGoogle({ now: () => now });
  ({ app: t, server, google } = live);
});
afterAll(async () => {
  await live?.close();
});

const LEADS = [
  { email: 'zoe@example.com', first_name: 'Zoë', company: 'Crème', custom_fields: { plan: 'pro' } },
  { email: 'max@example.com', first_name: 'Max', company: 'Forge', custom_fields: { plan: 'team' } },
];

const sentTo = (account: string, to: string) =>
  google.sent.filter((m) => m.parsed.from?.text === account && (m.parsed.to as { text: string }).text === to);

describe('sending through Gmail (live mode, fake Google)', () => {
  it('sends well-formed MIME with one-click unsubscribe headers, and the one-click POST unsubscribes the lead from everything', async () => {
    const ws = await liveWorkspace(t, google, 'mime@gmail.example', LEADS);
    const seq = await approvedSequence(t, ws);
    await json(
      t.request(`/api/v1/sequences/${seq.id}/launch`, {
        method: 'POST',
        token: ws.owner.token,
        json: { enroll: { lead_ids: ws.leads.map((l) => l.id) } },
      }),
    );
    await drain(t);
    const [zoe] = sentTo('mime@gmail.example', 'zoe@example.com');
    expect(zoe.parsed.subject).toBe('Hello Zoë at Crème');
    expect(zoe.parsed.text).toContain('Acme Ltd, 1 Main St, Springfield');
    expect(zoe.parsed.html).toContain('<strong>Crème</strong>');
    expect(
      String(
        zoe.parsed.headers.get('content-type') && (zoe.parsed.headers.get('content-type') as { value: string }).value,
      ),
    ).toBe('multipart/alternative');
    expect(zoe.parsed.messageId).toMatch(/^<msg_[0-9a-z]{26}\.[0-9a-f-]{36}@gmail\.example>$/);
    const raw = Buffer.from(zoe.raw, 'base64url').toString('utf8');
    expect(raw).toMatch(/^Subject: =\?UTF-8\?/m);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    const link = /^List-Unsubscribe: <([^>]+)>\r?$/m.exec(raw)?.[1] as string;
    expect(link).toMatch(new RegExp(`^${server.url}/unsubscribe/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
    const sent = await json(t.request(`/api/v1/sent-messages?sequence_id=${seq.id}`, { token: ws.owner.token }));
    expect(sent.data.map((m: any) => m.message_id)).toContain(zoe.parsed.messageId);

    // A link scanner's GET shows the confirmation page and changes nothing.
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBeTruthy();
    const html = await page.text();
    expect(html).toContain('<form method="post"');
    // It names the sender (the workspace and the address it sends from) and is styled by the service's own sheet.
    const workspaceName = (await json(t.request('/api/v1/users/me', { token: ws.owner.token }))).workspace
      .name as string;
    expect(html).toContain(`emails by <strong>${workspaceName}</strong> (<strong>mime@gmail.example</strong>)`);
    expect(html).toContain('<link rel="stylesheet" href="/page.css">');
    expect((await json(t.request(`/api/v1/leads/${ws.leads[0].id}`, { token: ws.owner.token }))).status).toBe('active');

    // The mail client's RFC 8058 one-click POST.
    const oneClick = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    const confirmed = await oneClick.text();
    expect(confirmed).toContain('Unsubscribed');
    expect(confirmed).toContain(`emails from <strong>${workspaceName}</strong> (<strong>mime@gmail.example</strong>)`);
    expect((await json(t.request(`/api/v1/leads/${ws.leads[0].id}`, { token: ws.owner.token }))).status).toBe(
      'unsubscribed',
    );
    const enrollments = await json(t.request(`/api/v1/sequences/${seq.id}/enrollments`, { token: ws.owner.token }));
    expect(enrollments.data.find((e: any) => e.lead_id === ws.leads[0].id)).toMatchObject({
      status: 'stopped',
      stop_reason: 'unsubscribed',
    });
    const tampered = await fetch(`${link.slice(0, -3)}abc`, { method: 'POST' });
    expect(tampered.status).toBe(400);

    // Step 2 goes to Max only; Zoë, unsubscribed mid-sequence, gets nothing more.
    now = new Date(now.getTime() + 2 * 86_400_000 + 60_000);
    await relogin(t, ws);
    await drain(t);
    expect(sentTo('mime@gmail.example', 'zoe@example.com')).toHaveLength(1);
    expect(sentTo('mime@gmail.example', 'max@example.com').map((m) => m.parsed.subject)).toEqual([
      'Hello Max at Forge',
      'Following up',
    ]);
    const done = await json(t.request(`/api/v1/sequences/${seq.id}`, { token: ws.owner.token }));
    expect(done).toMatchObject({ status: 'completed', stats: { sent: 3, unsubscribed: 1 } });
    // And a later enrollment skips her as suppressed.
    const other = await approvedSequence(t, ws, { ...twoSteps(ws.connector.id), name: 'Second' });
    const again = await json(
      t.request(`/api/v1/sequences/${other.id}/enrollments`, {
        method: 'POST',
        token: ws.owner.token,
        json: { lead_ids: [ws.leads[0].id] },
      }),
    );
    expect(again.results[0]).toMatchObject({ outcome: 'skipped', reason: 'suppressed' });
    expect(google.refusals).toEqual([]);
  });

  it('pauses the sequence with connector_expired when Google refuses the refresh token, sending nothing', async () => {
    const ws = await liveWorkspace(t, google, 'expiry@gmail.example', LEADS);
    const seq = await approvedSequence(t, ws);
    await json(
      t.request(`/api/v1/sequences/${seq.id}/launch`, {
        method: 'POST',
        token: ws.owner.token,
        json: { enroll: { lead_ids: ws.leads.map((l) => l.id) } },
      }),
    );
    google.expireAccessTokens();
    google.failRefreshWithInvalidGrant();
    now = new Date(now.getTime() + 2 * 3600_000);
    await relogin(t, ws);
    await drain(t);
    expect(google.sent.filter((m) => m.parsed.from?.text === 'expiry@gmail.example')).toHaveLength(0);
    const paused = await json(t.request(`/api/v1/sequences/${seq.id}`, { token: ws.owner.token }));
    expect(paused).toMatchObject({
      status: 'paused',
      pause_reason: 'connector_expired',
      stats: { sent: 0, scheduled: 2 },
    });
    const events = await json(t.request('/api/v1/events?type=email_sequence.paused', { token: ws.owner.token }));
    expect(events.data.at(-1).data).toMatchObject({ id: seq.id, pause_reason: 'connector_expired' });
    const resume = await t.request(`/api/v1/sequences/${seq.id}/resume`, { method: 'POST', token: ws.owner.token });
    expect(resume.status).toBe(409);
    expect((await resume.json()).code).toBe('connector_expired');
  });
});

describe('refusals from Gmail (live mode, fake Google)', () => {
  it('retries a 429 after its Retry-After, holding the whole mailbox, and counts only real attempts', async () => {
    const ws = await liveWorkspace(t, google, 'throttled@gmail.example', LEADS);
    const sequenceId = await launchedOneStep(t, ws);
    google.refuseNextSends([{ status: 429, message: 'User-rate limit exceeded', retryAfter: 600 }]);
    await drain(t);
    expect(
      sentTo('throttled@gmail.example', 'zoe@example.com').length +
        sentTo('throttled@gmail.example', 'max@example.com').length,
    ).toBe(0);
    const waiting = await json(t.request(`/api/v1/sent-messages?sequence_id=${sequenceId}`, { token: ws.owner.token }));
    expect(waiting.data.map((m: any) => m.status)).toEqual(['scheduled', 'scheduled']);
    const refused = waiting.data.find((m: any) => m.error_code === 'rate_limited');
    const released = waiting.data.find((m: any) => m.error_code === 'released');
    expect([refused.attempts, released.attempts]).toEqual([1, 0]);
    for (const m of waiting.data) expect(Date.parse(m.scheduled_at) - now.getTime()).toBeGreaterThanOrEqual(600_000);

    now = new Date(now.getTime() + 11 * 60_000);
    await relogin(t, ws);
    await drain(t);
    const sent = await json(
      t.request(`/api/v1/sent-messages?sequence_id=${sequenceId}&status=sent`, { token: ws.owner.token }),
    );
    expect(sent.data.map((m: any) => m.attempts).sort()).toEqual([1, 2]);
    expect(sentTo('throttled@gmail.example', 'zoe@example.com')).toHaveLength(1);
    expect(sentTo('throttled@gmail.example', 'max@example.com')).toHaveLength(1);
  });

  it('leaves a message uncertain when Gmail took it but its answer never came: never resent, its enrollment stopped', async () => {
    const ws = await liveWorkspace(t, google, 'silent@gmail.example', LEADS);
    const seq = await approvedSequence(t, ws);
    await json(
      t.request(`/api/v1/sequences/${seq.id}/launch`, {
        method: 'POST',
        token: ws.owner.token,
        json: { enroll: { lead_ids: [ws.leads[0].id] } },
      }),
    );
    google.dropNextSendAnswer();
    await drain(t);
    const [message] = (await json(t.request(`/api/v1/sent-messages?sequence_id=${seq.id}`, { token: ws.owner.token })))
      .data;
    expect(message).toMatchObject({ status: 'uncertain', error_code: 'no_answer' });
    const enrollments = await json(t.request(`/api/v1/sequences/${seq.id}/enrollments`, { token: ws.owner.token }));
    expect(enrollments.data[0]).toMatchObject({ status: 'stopped', stop_reason: 'uncertain' });
    const events = await json(t.request('/api/v1/events?type=email_message.uncertain', { token: ws.owner.token }));
    expect(events.data.map((e: any) => e.data.id)).toContain(message.id);
    await drain(t);
    expect(sentTo('silent@gmail.example', 'zoe@example.com')).toHaveLength(1);
  });

  it('fails a message Gmail refuses for its recipient and marks the lead bounced and suppressed everywhere', async () => {
    const ws = await liveWorkspace(t, google, 'bounce@gmail.example', LEADS);
    const seq = await approvedSequence(t, ws);
    await json(
      t.request(`/api/v1/sequences/${seq.id}/launch`, {
        method: 'POST',
        token: ws.owner.token,
        json: { enroll: { lead_ids: [ws.leads[0].id] } },
      }),
    );
    google.refuseNextSends([{ status: 400, message: 'Invalid To header' }]);
    await drain(t);
    const [failed] = (await json(t.request(`/api/v1/sent-messages?sequence_id=${seq.id}`, { token: ws.owner.token })))
      .data;
    expect(failed).toMatchObject({ status: 'failed', error_code: 'bounced' });
    expect((await json(t.request(`/api/v1/leads/${ws.leads[0].id}`, { token: ws.owner.token }))).status).toBe(
      'bounced',
    );
    const done = await json(t.request(`/api/v1/sequences/${seq.id}`, { token: ws.owner.token }));
    expect(done.stats).toMatchObject({ failed: 1, bounced: 1, sent: 0 });
    const events = await json(t.request('/api/v1/events?type=lead.bounced', { token: ws.owner.token }));
    expect(events.data.map((e: any) => e.data.id)).toContain(ws.leads[0].id);
  });
});
