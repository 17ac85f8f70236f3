// Webinar mail through the live code path against the strict fake Google: the confirmation's MIME carries
// the text/calendar alternative (method=REQUEST) and the invite.ics attachment from the connected account;
// a 503 is retried later, never twice sent. (A refused access token refreshed once is the mailbox's own
// behaviour: test/handlers/connectors/gmail-mailbox.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { startFakeGoogle, type FakeGoogle } from '../connectors/fake-google.ts';
import { json, liveWorkspace, type Workspace } from '../sequences/sequence-fixtures.ts';
import { addWebinarRegistrants, icsProps, scheduleWebinar, sendMail } from './webinar-fixtures.ts';

let t: TestApp;
let google: FakeGoogle;
let server: { url: string; close(): Promise<void> };
let now = new Date('2026-11-24T10:00:00Z');

beforeAll(async () => {
  let redirect = '';
  google = await startFakeGoogle({ redirectUri: () => redirect });
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', clock: { now: () => now }, env: google.env() }));
  redirect = `${server.url}/oauth/callback`;
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  await google?.close();
});

const sentTo = (to: string) => google.sent.filter((m) => (m.parsed.to as { text: string }).text === to);

describe('webinar mail through Gmail (live mode, fake Google)', () => {
  it('sends the confirmation from the connected account with the calendar invitation as alternative and attachment', async () => {
    const ws = await liveWorkspace(t, google, 'host@gmail.example');
    const webinar = await scheduleWebinar(t, ws);
    await addWebinarRegistrants(t, ws, webinar.id, [{ email: 'zoe@example.com', first_name: 'Zoë' }]);
    expect(await sendMail(t)).toBe(1);
    const [zoe] = sentTo('zoe@example.com');
    expect(zoe.parsed.from?.text).toBe('host@gmail.example');
    expect(zoe.parsed.subject).toBe("You're registered: Pipeline clinic");
    expect(zoe.parsed.text).toContain('Hello Zoë,');
    const raw = Buffer.from(zoe.raw, 'base64url').toString('utf8');
    expect(raw).toMatch(/^Content-Type: text\/calendar; charset=utf-8; method=REQUEST\r?$/m);
    const ics = zoe.parsed.attachments.find((a) => a.filename === 'invite.ics');
    expect(ics).toBeDefined();
    expect(icsProps((ics as { content: Buffer }).content.toString('utf8'))).toMatchObject({
      METHOD: 'REQUEST',
      UID: `${webinar.id}@webinars.service-mcp`,
      SEQUENCE: '0',
      ORGANIZER: 'mailto:host@gmail.example',
    });
    expect(google.refusals).toEqual([]);
  });

  it('retries a 503 later and the mail goes exactly once', async () => {
    const ws = await liveWorkspace(t, google, 'retry@gmail.example');
    const webinar = await scheduleWebinar(t, ws, { title: 'Retry clinic' });
    google.refuseNextSends([{ status: 503, message: 'Backend Error' }]);
    await addWebinarRegistrants(t, ws, webinar.id, [{ email: 'lou@example.com' }]);
    expect(await sendMail(t)).toBe(1);
    expect(sentTo('lou@example.com')).toHaveLength(0);
    expect(await sendMail(t)).toBe(0);
    now = new Date(now.getTime() + 10 * 60_000);
    expect(await sendMail(t)).toBe(1);
    expect(await sendMail(t)).toBe(0);
    expect(sentTo('lou@example.com')).toHaveLength(1);
  });
});
