// Reading a Gmail mailbox in live mode, over real HTTP against the strict fake Google: each read of the
// MailboxReader and what each of Gmail's refusals comes to (an expired history id, a grant without the
// scope, a refused token refreshed once, an answer that is not JSON), and a send into a thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignupResult, TestApp } from '../../helpers/app.ts';
import { json } from '../sequences/sequence-fixtures.ts';
import type { Connector } from './human.ts';
import { findConnector, type ConnectorRow } from '../../../src/handlers/connectors/connectors-data.ts';
import { composeGmailRaw } from '../../../src/handlers/connectors/google/mime.ts';
import { gmailMailbox } from '../../../src/handlers/connectors/google/gmail-mailbox.ts';
import { startFakeGoogle, type FakeGoogle } from './fake-google.ts';
import { listenOnReservedPort } from './listen.ts';

const SEND = 'https://www.googleapis.com/auth/gmail.send';
const METADATA = 'https://www.googleapis.com/auth/gmail.metadata';
const READONLY = 'https://www.googleapis.com/auth/gmail.readonly';

let google: FakeGoogle;
let t: TestApp;
let owner: SignupResult;
let close: () => Promise<void>;
const read = gmailMailbox.read;

beforeAll(async () => {
  let redirect = '';
  google = await startFakeGoogle({ redirectUri: () => redirect });
  const { app, server } = await listenOnReservedPort({ env: google.env() });
  redirect = `${server.url}/oauth/callback`;
  t = app;
  owner = await t.signup();
  close = async () => (await server.close(), await t.close());
});
afterAll(async () => {
  await close?.();
  await google?.close();
});

/** A live Gmail connector whose human ticked `grant` on Google's consent screen (default: all asked). */
async function connect(account: string, capabilities: string[], grant?: string[]): Promise<ConnectorRow> {
  const started = await json<Connector>(
    t.request('/api/v1/connectors/oauth', {
      method: 'POST',
      token: owner.token,
      json: { provider: 'gmail', capabilities },
    }),
    201,
  );
  const chosen = grant && ['openid', 'email', SEND, ...grant];
  await fetch(await google.consent(started.authorization_url as string, { email: account, grant: chosen }));
  return (await findConnector(t.db.sql, owner.workspaceId, started.id)) as ConnectorRow;
}

const inbound = (to: string, extra: Partial<Parameters<FakeGoogle['deliver']>[0]> = {}) =>
  google.deliver({ to, from: 'lead@example.com', subject: 'Re: Hello', text: 'Thanks, call me.', ...extra });

describe('the Gmail mailbox reader (live mode)', () => {
  it('reads the history since a historyId and each added message by its metadata', async () => {
    const connector = await connect('history@gmail.example', ['read_replies']);
    const profile = await read.profile(t.deps, connector);
    expect(profile).toMatchObject({ kind: 'ok', value: { historyId: expect.stringMatching(/^\d+$/) } });
    const start = profile.kind === 'ok' ? profile.value.historyId : '';
    const delivered = inbound('history@gmail.example', { headers: { 'In-Reply-To': '<ours@x>', 'X-Other': 'no' } });
    const history = await read.history(t.deps, connector, start);
    expect(history).toEqual({
      kind: 'ok',
      value: {
        added: [{ id: delivered.id, threadId: delivered.threadId, labelIds: ['INBOX', 'UNREAD'] }],
        historyId: google.historyId(),
        nextPageToken: undefined,
      },
    });
    const metadata = await read.metadata(t.deps, connector, delivered.id);
    expect(metadata).toMatchObject({
      kind: 'ok',
      value: { id: delivered.id, threadId: delivered.threadId, receivedAt: expect.any(Date) },
    });
    const headers = metadata.kind === 'ok' ? metadata.value.headers : {};
    expect(headers).toMatchObject({ from: ['lead@example.com'], subject: ['Re: Hello'], 'in-reply-to': ['<ours@x>'] });
    expect(headers['x-other']).toBeUndefined();
  });

  it('answers history_expired when Gmail no longer keeps the history asked for', async () => {
    const connector = await connect('expired@gmail.example', ['read_replies']);
    const old = google.historyId();
    inbound('expired@gmail.example');
    google.expireHistoryBefore(google.historyId());
    expect(await read.history(t.deps, connector, old)).toEqual({ kind: 'history_expired' });
    google.expireHistoryBefore('0');
  });

  it('answers insufficient_scope, never a crash, for a grant without gmail.metadata', async () => {
    const connector = await connect('send-only@gmail.example', ['read_replies'], []);
    expect(connector.scopes_granted).not.toContain(METADATA);
    for (const outcome of [
      await read.profile(t.deps, connector),
      await read.history(t.deps, connector, '1'),
      await read.metadata(t.deps, connector, 'x'),
    ])
      expect(outcome).toMatchObject({ kind: 'insufficient_scope', reason: expect.stringMatching(/insufficient/) });
  });

  it('answers insufficient_scope for the text of a message under gmail.metadata, and reads it under gmail.readonly', async () => {
    const metadataOnly = await connect('metadata-only@gmail.example', ['read_replies']);
    const a = inbound('metadata-only@gmail.example');
    expect(await read.full(t.deps, metadataOnly, a.id)).toMatchObject({
      kind: 'insufficient_scope',
      reason: expect.stringMatching(/Metadata scope/),
    });
    const readonly = await connect('readonly@gmail.example', ['read_reply_text'], [READONLY]);
    const b = inbound('readonly@gmail.example', {
      text: 'Not interested, thanks.',
      html: '<p>Not <b>interested</b></p>',
    });
    expect(await read.full(t.deps, readonly, b.id)).toMatchObject({
      kind: 'ok',
      value: { id: b.id, text: 'Not interested, thanks.', deliveryStatus: null },
    });
    const html = inbound('readonly@gmail.example', {
      text: undefined,
      html: '<p>Only <b>HTML</b> here</p><style>p{}</style>',
    });
    expect(await read.full(t.deps, readonly, html.id)).toMatchObject({ kind: 'ok', value: { text: 'Only HTML here' } });
  });

  it("reads a bounce's delivery status", async () => {
    const connector = await connect('dsn@gmail.example', ['read_reply_text'], [READONLY]);
    const dsn = inbound('dsn@gmail.example', { from: 'mailer-daemon@googlemail.com', deliveryStatus: '5.1.1' });
    expect(await read.full(t.deps, connector, dsn.id)).toMatchObject({
      kind: 'ok',
      value: { deliveryStatus: '5.1.1', headers: { 'content-type': [expect.stringMatching(/multipart\/report/)] } },
    });
  });

  it('answers not_found for a message or thread Gmail does not have', async () => {
    const connector = await connect('missing@gmail.example', ['read_replies']);
    expect(await read.metadata(t.deps, connector, '18f0000000000dead')).toEqual({ kind: 'not_found' });
    expect(await read.thread(t.deps, connector, '18f0000000000dead')).toEqual({ kind: 'not_found' });
  });

  it('lists the last days without a search under gmail.metadata, stopping at the first older message', async () => {
    const account = 'recent@gmail.example';
    const connector = await connect(account, ['read_replies']);
    const day = 86_400_000;
    const old = [40, 35, 31].map((d) => inbound(account, { internalDate: new Date(Date.now() - d * day) }));
    const recent = [20, 5, 1].map((d) => inbound(account, { internalDate: new Date(Date.now() - d * day) }));
    const outcome = await read.recent(t.deps, connector, 30);
    expect(outcome).toEqual({
      kind: 'ok',
      value: { messages: recent.reverse().map((m) => ({ id: m.id, threadId: m.threadId, labelIds: [] })) },
    });
    expect(old).toHaveLength(3);
  });

  it('lists the last days with a search under gmail.readonly alone', async () => {
    const account = 'search@gmail.example';
    const connector = await connect(account, ['read_reply_text'], [READONLY]);
    inbound(account, { internalDate: new Date(Date.now() - 45 * 86_400_000) });
    const fresh = inbound(account);
    expect(await read.recent(t.deps, connector, 30)).toEqual({
      kind: 'ok',
      value: { messages: [{ id: fresh.id, threadId: fresh.threadId, labelIds: [] }], nextPageToken: undefined },
    });
  });

  it('refreshes a refused access token once and reads again', async () => {
    const connector = await connect('refresh@gmail.example', ['read_replies']);
    const refreshes = google.refreshes;
    google.expireAccessTokens();
    expect(await read.profile(t.deps, connector)).toMatchObject({ kind: 'ok' });
    expect(google.refreshes).toBe(refreshes + 1);
  });

  it('answers retryable for an answer that is not JSON, a 429 with its Retry-After and a 503', async () => {
    const connector = await connect('odd@gmail.example', ['read_replies']);
    google.answerNextReads([
      { status: 200, body: '<html>oops</html>' },
      { status: 429, body: { error: { code: 429, message: 'Too many requests' } }, retryAfter: 30 },
      { status: 503, body: { error: { code: 503, message: 'Backend Error' } } },
    ]);
    expect(await read.profile(t.deps, connector)).toMatchObject({ kind: 'retryable', reason: /without JSON/ });
    expect(await read.profile(t.deps, connector)).toMatchObject({ kind: 'retryable', retryAfterSeconds: 30 });
    expect(await read.metadata(t.deps, connector, 'x')).toMatchObject({ kind: 'retryable', reason: /503/ });
  });

  it('reads an odd message without failing: huge header, CRLF in a value, no internalDate, a deep multipart', async () => {
    const account = 'hostile@gmail.example';
    const connector = await connect(account, ['read_reply_text'], [READONLY]);
    let deep: Record<string, unknown> = {
      mimeType: 'text/plain',
      body: { data: Buffer.from('deep').toString('base64url') },
    };
    for (let i = 0; i < 50; i++) deep = { mimeType: 'multipart/mixed', parts: [deep, 'junk', null] };
    const hostile = inbound(account, {
      payload: {
        headers: [
          { name: 'Subject', value: 'x'.repeat(1_000_000) },
          { name: 'From', value: 'a@b\r\nBcc: victim@example.com' },
          { name: 42, value: 'bad' },
          'junk',
        ],
        parts: [deep],
      },
    });
    const full = await read.full(t.deps, connector, hostile.id);
    expect(full).toMatchObject({ kind: 'ok', value: { text: null, deliveryStatus: null } });
    const headers = full.kind === 'ok' ? full.value.headers : {};
    expect(headers.subject[0].length).toBeLessThan(10_000);
    expect(headers.from).toEqual(['a@b Bcc: victim@example.com']);
  });

  it('sends into a thread and reads the thread oldest first', async () => {
    const account = 'thread@gmail.example';
    const connector = await connect(account, ['read_replies']);
    const raw = (subject: string, headers?: Record<string, string>) =>
      composeGmailRaw({
        from: account,
        to: 'lead@example.com',
        subject,
        text: 'Hi.',
        html: '<p>Hi.</p>',
        messageId: `<${Math.random().toString(36).slice(2)}@test>`,
        date: new Date(),
        headers,
      });
    const first = await gmailMailbox.send(t.deps, connector, await raw('Hello'));
    if (first.kind !== 'sent') throw new Error(`not sent: ${first.kind}`);
    const firstId = google.sent.at(-1)?.parsed.messageId as string;
    const reply = inbound(account, { headers: { 'In-Reply-To': firstId, References: firstId } });
    expect(reply.threadId).toBe(first.threadId);
    const second = await gmailMailbox.send(
      t.deps,
      connector,
      await raw('Re: Hello', { 'In-Reply-To': firstId, References: firstId }),
      { threadId: first.threadId },
    );
    expect(second).toMatchObject({ kind: 'sent', threadId: first.threadId });
    const thread = await read.thread(t.deps, connector, first.threadId as string);
    expect(thread.kind === 'ok' && thread.value.messages.map((m) => m.id)).toEqual([
      first.providerMessageId,
      reply.id,
      second.kind === 'sent' && second.providerMessageId,
    ]);
  });
});
