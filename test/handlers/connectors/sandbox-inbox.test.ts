// The sandbox mailbox read through its Gmail-compatible routes, as the mailbox sync reads Gmail: a sandbox
// lead's answer appears once in history after the profile's historyId, its headers in format=metadata, its
// text only with gmail.readonly, and in the original's thread; Google's refusals come in Google's shapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignupResult, TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from './listen.ts';
import { composeGmailRaw } from '../../../src/handlers/connectors/google/mime.ts';
import { accessToken, connectSandboxGmail, gmail, headerOf, sendTest, simulate } from './sandbox-inbox-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let owner: SignupResult;
let metadataToken: string;
let readonlyToken: string;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort());
  owner = await t.signup();
  const metadata = await connectSandboxGmail(t, owner, 'ada@sandbox.example', ['read_replies']);
  metadataToken = await accessToken(t, owner, metadata.id);
  // A second connector of the same account, with the text: it reads the same mailbox.
  const text = await connectSandboxGmail(t, owner, 'ada@sandbox.example', ['read_reply_text']);
  readonlyToken = await accessToken(t, owner, text.id);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

async function sentAndReplied(to: string, text = 'Yes, let us talk on Tuesday.') {
  const { body: profile } = await gmail(server.url, metadataToken, 'profile');
  const sent = await sendTest(t, owner, await connectorId(), to);
  const res = await simulate(t, owner, { message_id: sent, kind: 'reply', text });
  expect(res.status, await res.clone().text()).toBe(201);
  return { profile, sent, reply: (await res.json()) as { id: string; message_id: string } };
}

async function connectorId() {
  const [row] = await t.db.sql<{ id: string }[]>`
    select id from connectors where workspace_id = ${owner.workspaceId} order by created_at limit 1`;
  return row?.id;
}

describe('sandbox Gmail read routes', () => {
  it('lists a simulated reply once in the history after the profile historyId, with INBOX and UNREAD', async () => {
    const { profile, sent, reply } = await sentAndReplied('grace@example.com');
    expect(profile).toMatchObject({ emailAddress: 'ada@sandbox.example', historyId: expect.stringMatching(/^\d+$/) });
    const { status, body } = await gmail(server.url, metadataToken, `history?startHistoryId=${profile.historyId}`);
    expect(status).toBe(200);
    const added = body.history.flatMap((h: any) => h.messagesAdded.map((a: any) => a.message));
    expect(added.map((m: any) => m.id)).toEqual([sent, reply.id]);
    expect(added[1]).toEqual({ id: reply.id, threadId: sent, labelIds: ['INBOX', 'UNREAD'] });
    expect(added[0].labelIds).toEqual(['SENT']);
    expect(BigInt(body.historyId)).toBeGreaterThanOrEqual(BigInt(body.history[1].id));

    const after = await gmail(server.url, metadataToken, `history?startHistoryId=${body.historyId}`);
    expect(after).toEqual({ status: 200, body: { historyId: body.historyId } });
  });

  it('shows the headers with format=metadata and refuses format=full without gmail.readonly', async () => {
    const { sent, reply } = await sentAndReplied('alan@example.com');
    const meta = await gmail(
      server.url,
      metadataToken,
      `messages/${reply.id}?format=metadata&metadataHeaders=In-Reply-To&metadataHeaders=subject&metadataHeaders=From`,
    );
    expect(meta.status).toBe(200);
    expect(meta.body).toMatchObject({ id: reply.id, threadId: sent, labelIds: ['INBOX', 'UNREAD'] });
    expect(meta.body.internalDate).toMatch(/^\d+$/);
    expect(meta.body.snippet).toBeUndefined();
    expect(meta.body.payload.headers.map((h: any) => h.name).sort()).toEqual(['From', 'In-Reply-To', 'Subject']);
    const [original] = await t.db.sql<{ message_id_header: string; subject: string }[]>`
      select message_id_header, subject from sandbox_messages where id = ${sent}`;
    expect(headerOf(meta.body.payload, 'In-Reply-To')).toBe(original.message_id_header);
    expect(headerOf(meta.body.payload, 'Subject')).toBe(`Re: ${original.subject}`);
    expect(headerOf(meta.body.payload, 'From')).toBe('alan@example.com');

    for (const format of ['full', 'raw']) {
      const refused = await gmail(server.url, metadataToken, `messages/${reply.id}?format=${format}`);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({
        code: 403,
        status: 'PERMISSION_DENIED',
        message: `Metadata scope doesn't allow format ${format.toUpperCase()}`,
      });
    }
    const full = await gmail(server.url, readonlyToken, `messages/${reply.id}?format=full`);
    expect(full.status).toBe(200);
    const data = full.body.payload.body.data ?? full.body.payload.parts[0].body.data;
    expect(Buffer.from(data, 'base64url').toString('utf8')).toContain('Yes, let us talk on Tuesday.');
    expect(full.body.snippet).toContain('Yes, let us talk on Tuesday.');
  });

  it('lists the sent message and the reply in their thread, oldest first', async () => {
    const { sent, reply } = await sentAndReplied('hopper@example.com');
    const { status, body } = await gmail(server.url, metadataToken, `threads/${sent}?format=metadata`);
    expect(status).toBe(200);
    expect(body.id).toBe(sent);
    expect(body.messages.map((m: any) => m.id)).toEqual([sent, reply.id]);
    expect(body.historyId).toBe(body.messages[1].historyId);
    expect(
      (await gmail(server.url, metadataToken, 'threads/smsg_00000000000000000000000000?format=metadata')).status,
    ).toBe(404);
  });

  it('answers 404 for a startHistoryId with forgotten history after it (older than 30 days), 400 without one', async () => {
    const { profile, reply } = await sentAndReplied('old@example.com');
    await t.db.sql`update sandbox_messages set created_at = now() - interval '31 days' where id = ${reply.id}`;
    const expired = await gmail(server.url, metadataToken, `history?startHistoryId=${profile.historyId}`);
    expect(expired.status).toBe(404);
    expect(expired.body.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    expect((await gmail(server.url, metadataToken, 'history?startHistoryId=0')).status).toBe(404);
    expect((await gmail(server.url, metadataToken, 'history?startHistoryId=99999999999')).status).toBe(404);
    const missing = await gmail(server.url, metadataToken, 'history');
    expect(missing.status).toBe(400);
    expect(missing.body.error.status).toBe('INVALID_ARGUMENT');
  });

  it('pages history and messages with page tokens', async () => {
    const { body: profile } = await gmail(server.url, metadataToken, 'profile');
    for (const to of ['p1@example.com', 'p2@example.com', 'p3@example.com'])
      await sendTest(t, owner, await connectorId(), to);
    const first = await gmail(server.url, metadataToken, `history?startHistoryId=${profile.historyId}&maxResults=2`);
    expect(first.body.history).toHaveLength(2);
    const second = await gmail(
      server.url,
      metadataToken,
      `history?startHistoryId=${profile.historyId}&maxResults=2&pageToken=${first.body.nextPageToken}`,
    );
    expect(second.body).toHaveProperty('history');
    expect(second.body.history).toHaveLength(1);
    expect(second.body.nextPageToken).toBeUndefined();

    const page = await gmail(server.url, metadataToken, 'messages?maxResults=2&labelIds=SENT');
    expect(page.body.messages).toHaveLength(2);
    const next = await gmail(
      server.url,
      metadataToken,
      `messages?maxResults=2&labelIds=SENT&pageToken=${page.body.nextPageToken}`,
    );
    expect(next.body.messages[0].id).not.toBe(page.body.messages[1].id);
  });

  it('refuses q under gmail.metadata, as Google does, and searches with gmail.readonly', async () => {
    const refused = await gmail(server.url, metadataToken, 'messages?q=newer_than:30d');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe("Metadata scope does not support 'q' parameter");
    const { reply } = await sentAndReplied('search@example.com');
    const found = await gmail(server.url, readonlyToken, 'messages?q=newer_than:30d%20in:inbox');
    expect(found.status).toBe(200);
    expect(found.body.messages[0]).toEqual({ id: reply.id, threadId: expect.any(String) });
    expect(found.body.messages.every((m: any) => m.id !== undefined)).toBe(true);
    const none = await gmail(server.url, readonlyToken, 'messages?q=older_than:1y');
    expect(none.body).toEqual({ resultSizeEstimate: 0 });
  });
});

describe('sandbox Gmail send into a thread', () => {
  async function sendRaw(threadId: string, headers: { subject: string; inReplyTo?: string }) {
    const [row] = await t.db.sql<{ id: string }[]>`
      select c.id from connectors c where c.workspace_id = ${owner.workspaceId} order by c.created_at limit 1`;
    const token = await accessToken(t, owner, row.id);
    const raw = await composeGmailRaw({
      from: 'ada@sandbox.example',
      to: 'thread@example.com',
      subject: headers.subject,
      text: 'Following up.',
      html: '<p>Following up.</p>',
      messageId: `<${Math.random().toString(36).slice(2)}@test>`,
      date: new Date(),
      headers: headers.inReplyTo ? { 'In-Reply-To': headers.inReplyTo, References: headers.inReplyTo } : {},
    });
    const res = await fetch(`${server.url}/sandbox/google/gmail/v1/users/me/messages/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ raw, threadId }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { id: string; threadId: string; labelIds: string[] };
  }

  it('joins the thread when In-Reply-To names one of its messages and the subject matches, as Gmail does', async () => {
    const first = await sendTest(t, owner, await connectorId(), 'thread@example.com');
    const [original] = await t.db.sql<{ message_id_header: string; subject: string }[]>`
      select message_id_header, subject from sandbox_messages where id = ${first}`;
    const joined = await sendRaw(first, { subject: `Re: ${original.subject}`, inReplyTo: original.message_id_header });
    expect(joined).toEqual({ id: expect.any(String), threadId: first, labelIds: ['SENT'] });
    const otherSubject = await sendRaw(first, { subject: 'Something else', inReplyTo: original.message_id_header });
    expect(otherSubject.threadId).toBe(otherSubject.id);
    const noReference = await sendRaw(first, { subject: `Re: ${original.subject}` });
    expect(noReference.threadId).toBe(noReference.id);
    const unknownThread = await sendRaw('smsg_00000000000000000000000000', { subject: 'x' });
    expect(unknownThread.threadId).toBe(unknownThread.id);
  });
});

describe('sandbox Gmail scopes and mailboxes', () => {
  it('answers 403 insufficientPermissions to a token without a read scope', async () => {
    const other = await t.signup();
    const sendOnly = await connectSandboxGmail(t, other, 'send.only@sandbox.example', []);
    const token = await accessToken(t, other, sendOnly.id);
    for (const path of ['profile', 'history?startHistoryId=1', 'messages', 'threads/x', 'messages/x']) {
      const { status, body } = await gmail(server.url, token, path);
      expect(status).toBe(403);
      expect(body.error.errors[0].reason).toBe('insufficientPermissions');
    }
  });

  it('answers 404 for another mailbox’s message, even of the same account address', async () => {
    const { sent } = await sentAndReplied('private@example.com');
    const other = await t.signup();
    const same = await connectSandboxGmail(t, other, 'ada@sandbox.example', ['read_reply_text']);
    const token = await accessToken(t, other, same.id);
    expect((await gmail(server.url, token, `messages/${sent}?format=metadata`)).status).toBe(404);
    expect((await gmail(server.url, token, `threads/${sent}`)).status).toBe(404);
    expect((await gmail(server.url, token, 'profile')).body.messagesTotal).toBe(0);
  });

  it('answers 401 without a valid token', async () => {
    const { status, body } = await gmail(server.url, 'ya29.nope', 'profile');
    expect(status).toBe(401);
    expect(body.error.status).toBe('UNAUTHENTICATED');
  });
});
