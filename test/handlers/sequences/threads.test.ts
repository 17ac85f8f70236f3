// Follow-ups in the thread, on the MIME the fake Google records: a step in_thread answers the enrollment's
// previous message (In-Reply-To, every earlier Message-ID in References, "Re: <first subject>") and is sent
// into that message's Gmail thread, whose id list_sent_messages shows; a step with in_thread false starts a
// new thread under its own subject.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { gmailMailbox } from '../../../src/handlers/connectors/google/gmail-mailbox.ts';
import { listenLiveAgainstFakeGoogle, type LiveService } from '../connectors/live-service.ts';
import type { FakeGoogle } from '../connectors/fake-google.ts';
import { approvedSequence, drain, json, liveWorkspace, relogin, type Workspace } from './sequence-fixtures.ts';

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

const anyTime = {
  timezone: 'UTC',
  days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  start_hour: 0,
  end_hour: 24,
};

/** Launches `steps` for the workspace's one lead and sends every step, a day apart. */
async function sendAll(ws: Workspace, steps: Array<Record<string, unknown>>): Promise<any[]> {
  const seq = await approvedSequence(t, ws, {
    name: 'Threads',
    sender_connector_id: ws.connector.id,
    schedule: anyTime,
    steps,
  });
  await json(
    t.request(`/api/v1/sequences/${seq.id}/launch`, {
      method: 'POST',
      token: ws.owner.token,
      json: { enroll: { lead_ids: [ws.leads[0].id] } },
    }),
  );
  for (let i = 0; i < steps.length; i++) {
    await drain(t);
    now = new Date(now.getTime() + 86_400_000 + 60_000);
    await relogin(t, ws);
  }
  const sent = await json(t.request(`/api/v1/sent-messages?sequence_id=${seq.id}`, { token: ws.owner.token }));
  expect(sent.data.map((m: any) => m.status)).toEqual(steps.map(() => 'sent'));
  return [...sent.data].sort((a: any, b: any) => a.step - b.step);
}

const mimeTo = (account: string) => google.sent.filter((m) => m.parsed.from?.text === account);
const header = (raw: string, name: string) =>
  new RegExp(`^${name}:((?:.*)(?:\\r?\\n[ \\t].*)*)`, 'mi')
    .exec(Buffer.from(raw, 'base64url').toString('utf8'))?.[1]
    .replace(/\s+/g, ' ')
    .trim();

describe('sequence follow-ups in the thread', () => {
  it('sends later steps as replies: In-Reply-To the previous message, References to every earlier one, "Re:" the first subject, into its Gmail thread', async () => {
    const account = 'threads@gmail.example';
    const ws = await liveWorkspace(t, google, account, [{ email: 'ines@example.com', first_name: 'Inès' }]);
    const send = vi.spyOn(gmailMailbox, 'send');
    try {
      const messages = await sendAll(ws, [
        { subject: 'Hello {{first_name}}', body: 'First.' },
        { wait_days: 1, body: 'Second, in the thread.' },
        { wait_days: 1, body: 'Third, in the thread.' },
      ]);
      const [first, second, third] = mimeTo(account);
      expect(mimeTo(account)).toHaveLength(3);
      expect(first.parsed.subject).toBe('Hello Inès');
      expect(header(first.raw, 'In-Reply-To')).toBeUndefined();
      expect(header(first.raw, 'References')).toBeUndefined();

      expect(second.parsed.subject).toBe('Re: Hello Inès');
      expect(header(second.raw, 'In-Reply-To')).toBe(first.parsed.messageId);
      expect(header(second.raw, 'References')).toBe(first.parsed.messageId);
      expect(third.parsed.subject).toBe('Re: Hello Inès');
      expect(header(third.raw, 'In-Reply-To')).toBe(second.parsed.messageId);
      expect(header(third.raw, 'References')).toBe(`${first.parsed.messageId} ${second.parsed.messageId}`);

      // Each follow-up goes into the Gmail thread the previous send was filed in, and the thread shows.
      expect(messages.map((m: any) => m.message_id)).toEqual([first, second, third].map((m) => m.parsed.messageId));
      expect(messages.every((m: any) => typeof m.thread_id === 'string' && m.thread_id)).toBe(true);
      expect(messages.map((m: any) => m.reply_state)).toEqual([null, null, null]);
      const asked = send.mock.calls.filter(([, c]) => c.id === ws.connector.id).map(([, , , options]) => options);
      expect(asked).toEqual([
        { threadId: undefined },
        { threadId: messages[0].thread_id },
        { threadId: messages[1].thread_id },
      ]);
    } finally {
      send.mockRestore();
    }
  });

  it('starts a new thread under its own subject for a step with in_thread false', async () => {
    const account = 'newthread@gmail.example';
    const ws = await liveWorkspace(t, google, account, [{ email: 'otto@example.com', first_name: 'Otto' }]);
    const send = vi.spyOn(gmailMailbox, 'send');
    try {
      await sendAll(ws, [
        { subject: 'Hello {{first_name}}', body: 'First.' },
        { wait_days: 1, in_thread: false, subject: 'Something else, {{first_name}}', body: 'A fresh start.' },
      ]);
      const [, second] = mimeTo(account);
      expect(second.parsed.subject).toBe('Something else, Otto');
      expect(header(second.raw, 'In-Reply-To')).toBeUndefined();
      expect(header(second.raw, 'References')).toBeUndefined();
      const asked = send.mock.calls.filter(([, c]) => c.id === ws.connector.id).map(([, , , options]) => options);
      expect(asked).toEqual([{ threadId: undefined }, { threadId: undefined }]);
    } finally {
      send.mockRestore();
    }
  });

  it('keeps its own subject on a step in the thread that sets one', async () => {
    const account = 'ownsubject@gmail.example';
    const ws = await liveWorkspace(t, google, account, [{ email: 'pia@example.com', first_name: 'Pia' }]);
    await sendAll(ws, [
      { subject: 'Hello {{first_name}}', body: 'First.' },
      { wait_days: 1, subject: 'Re: Hello {{first_name}}, one more thing', body: 'Second.' },
    ]);
    const [first, second] = mimeTo(account);
    expect(second.parsed.subject).toBe('Re: Hello Pia, one more thing');
    expect(header(second.raw, 'In-Reply-To')).toBe(first.parsed.messageId);
  });
});
