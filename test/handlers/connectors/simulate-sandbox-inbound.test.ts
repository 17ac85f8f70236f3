// simulate_sandbox_inbound: a sandbox lead replies, auto-replies or bounces, and the answer is real mail in
// the original's thread, read back through the sandbox's Gmail routes as the mailbox sync reads it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignupResult, TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from './listen.ts';
import { accessToken, connectSandboxGmail, gmail, headerOf, sendTest, simulate } from './sandbox-inbox-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let owner: SignupResult;
let connectorId: string;
let token: string;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort());
  owner = await t.signup();
  connectorId = (await connectSandboxGmail(t, owner, 'sales@sandbox.example', ['read_reply_text'])).id;
  token = await accessToken(t, owner, connectorId);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

async function originalOf(id: string) {
  const [row] = await t.db.sql<{ message_id_header: string; subject: string; thread_id: string }[]>`
    select message_id_header, subject, thread_id from sandbox_messages where id = ${id}`;
  return row;
}

async function answered(kind: string, to: string, text?: string) {
  const sent = await sendTest(t, owner, connectorId, to);
  const res = await simulate(t, owner, { message_id: sent, kind, ...(text === undefined ? {} : { text }) });
  expect(res.status, await res.clone().text()).toBe(201);
  const inbound = await res.json();
  const full = await gmail(server.url, token, `messages/${inbound.id}?format=full`);
  expect(full.status).toBe(200);
  return { sent, inbound, original: await originalOf(sent), message: full.body };
}

const partText = (part: any) => Buffer.from(part.body.data ?? '', 'base64url').toString('utf8');

describe('simulate_sandbox_inbound', () => {
  it('puts the lead’s reply in the original’s thread, answering its Message-ID', async () => {
    const { sent, inbound, original, message } = await answered('reply', 'grace@example.com', 'Sounds good, call me.');
    expect(inbound).toMatchObject({
      mode: 'sandbox',
      direction: 'inbound',
      account_email: 'sales@sandbox.example',
      from: 'grace@example.com',
      to: 'sales@sandbox.example',
      subject: `Re: ${original.subject}`,
      text: 'Sounds good, call me.',
    });
    expect(message).toMatchObject({ threadId: sent, labelIds: ['INBOX', 'UNREAD'] });
    expect(headerOf(message.payload, 'In-Reply-To')).toBe(original.message_id_header);
    expect(headerOf(message.payload, 'References')).toBe(original.message_id_header);
    expect(headerOf(message.payload, 'Message-ID')).toBe(inbound.message_id);
    expect(headerOf(message.payload, 'Auto-Submitted')).toBeUndefined();
    expect(partText(message.payload)).toContain('Sounds good, call me.');

    const listed = await (await t.request('/api/v1/sandbox/messages', { token: owner.token })).json();
    expect(listed.data.find((m: any) => m.id === inbound.id).direction).toBe('inbound');
    expect(listed.data.find((m: any) => m.id === sent).direction).toBe('sent');
  });

  it('makes an out-of-office auto-reply with Auto-Submitted and X-Autoreply', async () => {
    const { inbound, original, message } = await answered('auto_reply', 'away@example.com');
    expect(inbound.subject).toBe(`Automatic reply: ${original.subject}`);
    expect(inbound.text).toMatch(/out of the office/);
    expect(headerOf(message.payload, 'Auto-Submitted')).toBe('auto-replied');
    expect(headerOf(message.payload, 'X-Autoreply')).toBe('yes');
    expect(headerOf(message.payload, 'In-Reply-To')).toBe(original.message_id_header);
  });

  it('makes a bounce a delivery status notification from the mailer-daemon', async () => {
    const { sent, inbound, original, message } = await answered('bounce', 'nobody@example.com');
    expect(inbound).toMatchObject({ subject: 'Delivery Status Notification (Failure)', to: 'sales@sandbox.example' });
    expect(inbound.from).toMatch(/<mailer-daemon@[a-z.]+>$/);
    expect(message.threadId).toBe(sent);
    const payload = message.payload;
    expect(payload.mimeType).toBe('multipart/report');
    expect(headerOf(payload, 'Content-Type')).toMatch(/report-type=delivery-status/);
    expect(headerOf(payload, 'X-Failed-Recipients')).toBe('nobody@example.com');
    expect(payload.parts.map((p: any) => p.mimeType)).toEqual([
      'text/plain',
      'message/delivery-status',
      'text/rfc822-headers',
    ]);
    const status = partText(payload.parts[1]);
    expect(status).toContain('Status: 5.1.1');
    expect(status).toContain('Action: failed');
    expect(status).toContain('Final-Recipient: rfc822; nobody@example.com');
    expect(partText(payload.parts[2])).toContain(`Message-ID: ${original.message_id_header}`);
  });

  it('keeps hostile text in the body: CRLF and control characters never make a header', async () => {
    const hostile = 'ok\r\nBcc: evil@example.com\r\nSubject: injected\r\n\r\n\u0007\u001b[31m done';
    const { inbound, message } = await answered('reply', 'mallory@example.com', hostile);
    expect(inbound.text).toBe(hostile);
    const names = message.payload.headers.map((h: any) => h.name.toLowerCase());
    expect(names).not.toContain('bcc');
    expect(names.filter((n: string) => n === 'subject')).toHaveLength(1);
    expect(headerOf(message.payload, 'Subject')).not.toContain('injected');

    const sent = await sendTest(t, owner, connectorId, 'mallory@example.com');
    for (const text of ['lone \ud800 surrogate', 'x'.repeat(1024 * 1024)]) {
      const res = await simulate(t, owner, { message_id: sent, kind: 'reply', text });
      expect([400, 413]).toContain(res.status);
    }
  });

  it('answers a replayed Idempotency-Key with the same message, stored once', async () => {
    const sent = await sendTest(t, owner, connectorId, 'once@example.com');
    const headers = { 'Idempotency-Key': `inbound-${sent}` };
    const first = await (await simulate(t, owner, { message_id: sent, kind: 'reply' }, headers)).json();
    const again = await simulate(t, owner, { message_id: sent, kind: 'reply' }, headers);
    expect(again.status).toBe(201);
    expect((await again.json()).id).toBe(first.id);
    const thread = await gmail(server.url, token, `threads/${sent}?format=minimal`);
    expect(thread.body.messages).toHaveLength(2);
  });

  it('refuses to answer an answer, and another workspace’s message is not found', async () => {
    const { inbound, sent } = await answered('reply', 'twice@example.com');
    const res = await simulate(t, owner, { message_id: inbound.id, kind: 'reply' });
    expect(res.status).toBe(409);
    const stranger = await t.signup();
    const hidden = await simulate(t, stranger, { message_id: sent, kind: 'reply' });
    expect(hidden.status).toBe(404);
    const unknown = await simulate(t, owner, { message_id: 'msg_00000000000000000000000000', kind: 'reply' });
    expect(unknown.status).toBe(404);
  });
});
