// The Gmail mailbox over real HTTP, in live mode against the strict fake Google and in sandbox mode
// against the service's own Gmail: the same code, only the endpoints differ. One send comes to one
// classified outcome; a refused access token is refreshed once and the send made once more, inside the
// adapter. The senders' own tests (sequences, webinars, the test email) show what each does with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignupResult, TestApp } from '../../helpers/app.ts';
import { freePort } from '../../helpers/prism.ts';
import { findConnector, type ConnectorRow } from '../../../src/handlers/connectors/connectors-data.ts';
import { composeGmailRaw } from '../../../src/handlers/connectors/google/mime.ts';
import { sendMail } from '../../../src/handlers/connectors/providers/providers.ts';
import { startFakeGoogle, type FakeGoogle } from './fake-google.ts';
import { listenOnReservedPort } from './listen.ts';
import { connectGmail, googleConsent, sandboxConsent, type Consent } from '../sequences/sequence-fixtures.ts';

interface Site {
  t: TestApp;
  url: string;
  owner: SignupResult;
  consent: Consent;
  close(): Promise<void>;
}

let google: FakeGoogle;
let live: Site;
let sandbox: Site;

async function open(env: Record<string, string>, consent: Consent): Promise<Site> {
  const { app: t, server } = await listenOnReservedPort({ env });
  const owner = await t.signup();
  return { t, url: server.url, owner, consent, close: async () => (await server.close(), await t.close()) };
}

beforeAll(async () => {
  let redirect = '';
  google = await startFakeGoogle({ redirectUri: () => redirect });
  live = await open(google.env(), googleConsent(google));
  redirect = `${live.url}/oauth/callback`;
  sandbox = await open({}, sandboxConsent);
});
afterAll(async () => {
  await live?.close();
  await sandbox?.close();
  await google?.close();
});

async function connected(site: Site, account: string): Promise<ConnectorRow> {
  const connector = await connectGmail(site.t, site.owner.token, account, site.consent);
  return (await findConnector(site.t.db.sql, site.owner.workspaceId, connector.id)) as ConnectorRow;
}

const raw = (from: string, to = 'lead@example.com') =>
  composeGmailRaw({
    from,
    to,
    subject: 'Hello',
    text: 'Hi.',
    html: '<p>Hi.</p>',
    messageId: `<${Math.random().toString(36).slice(2)}@test>`,
    date: new Date(),
  });

const send = async (site: Site, connector: ConnectorRow, to?: string) =>
  sendMail(site.t.deps, connector, await raw(connector.account_email as string, to));

const accessRevokedInSandbox = (site: Site) =>
  site.t.db.sql`update sandbox_tokens set revoked_at = now() where kind = 'access' and revoked_at is null`;

/** Access tokens the provider has issued: the fake Google counts refreshes, the sandbox keeps its tokens. */
async function issued(mode: 'live' | 'sandbox', account: string): Promise<number> {
  if (mode === 'live') return google.refreshes;
  const [row] = await sandbox.t.db
    .sql`select count(*)::int as n from sandbox_tokens t join sandbox_grants g on g.id = t.grant_id where g.account_email = ${account} and t.kind = 'access'`;
  return row.n as number;
}

describe('the Gmail mailbox, the same in both modes', () => {
  for (const mode of ['live', 'sandbox'] as const) {
    const site = () => (mode === 'live' ? live : sandbox);

    it(`sends and returns Gmail's message id (${mode})`, async () => {
      const connector = await connected(site(), `sent.${mode}@gmail.example`);
      const outcome = await send(site(), connector);
      expect(outcome).toMatchObject({ kind: 'sent', providerMessageId: expect.any(String) });
    });

    it(`refreshes a refused access token once and sends again (${mode})`, async () => {
      const account = `retry.${mode}@gmail.example`;
      const connector = await connected(site(), account);
      const before = await issued(mode, account);
      if (mode === 'live') google.expireAccessTokens();
      else await accessRevokedInSandbox(site());
      expect(await send(site(), connector)).toMatchObject({ kind: 'sent' });
      expect(await issued(mode, account)).toBe(before + 1);
    });

    it(`classifies a refused recipient as bounced (${mode})`, async () => {
      const connector = await connected(site(), `bounce.${mode}@gmail.example`);
      if (mode === 'live') google.refuseNextSends([{ status: 400, message: 'Invalid To header' }]);
      const outcome = await send(site(), connector, 'nobody@example.invalid');
      expect(outcome).toEqual({ kind: 'bounced', reason: 'Gmail send: the provider answered 400 (Invalid To header)' });
    });
  }
});

describe('the Gmail mailbox against the fake Google (live mode)', () => {
  it('refuses with connector_refused when Gmail refuses the freshly refreshed token too, after one refresh', async () => {
    const connector = await connected(live, 'refused@gmail.example');
    const refreshes = google.refreshes;
    const sent = google.sendCount;
    google.refuseNextSends(
      [401, 401].map((status) => ({ status, message: 'Request had invalid authentication credentials.' })),
    );
    expect(await send(live, connector)).toEqual({
      kind: 'refused',
      code: 'connector_refused',
      reason: 'Gmail send: the access token was refused',
    });
    expect(google.refreshes).toBe(refreshes + 1);
    expect(google.sendCount).toBe(sent);
  });

  it('refuses with connector_not_connected and the 409 when the refresh token is dead, expiring the connector', async () => {
    const connector = await connected(live, 'dead-grant@gmail.example');
    google.expireAccessTokens();
    google.failRefreshWithInvalidGrant();
    const outcome = await send(live, connector);
    expect(outcome).toMatchObject({
      kind: 'refused',
      code: 'connector_not_connected',
      problem: { code: 'connector_not_connected' },
    });
    expect(await findConnector(live.t.db.sql, live.owner.workspaceId, connector.id)).toMatchObject({
      status: 'expired',
      failure_reason: 'refresh_token_invalid',
    });
  });

  it.each([
    [
      'a 429 as rate_limited with its Retry-After',
      { status: 429, message: 'User-rate limit exceeded', retryAfter: 120 },
      { kind: 'retryable', code: 'rate_limited', retryAfterSeconds: 120 },
    ],
    [
      'a 503 as provider_unavailable',
      { status: 503, message: 'Backend Error' },
      { kind: 'retryable', code: 'provider_unavailable' },
    ],
    [
      'a 403 as provider_unavailable',
      { status: 403, message: 'Daily sending quota exceeded' },
      {
        kind: 'retryable',
        code: 'provider_unavailable',
        reason: 'Gmail send: the account does not allow sending with this grant (Daily sending quota exceeded)',
      },
    ],
    [
      'a 400 about anything but the recipient as rejected',
      { status: 400, message: 'Message too large' },
      { kind: 'refused', code: 'rejected' },
    ],
  ])('classifies %s', async (_name, answer, want) => {
    const connector = await connected(live, `answer.${answer.status}@gmail.example`);
    google.refuseNextSends([answer]);
    const outcome = await send(live, connector);
    expect(outcome).toMatchObject({
      reason: `Gmail send: the provider answered ${answer.status} (${answer.message})`,
      ...want,
    });
  });

  it('classifies no connection made as retryable and a connection dropped after the request as uncertain', async () => {
    const connector = await connected(live, 'silence@gmail.example');
    const nowhere = {
      ...live.t.deps,
      connectors: {
        ...live.t.deps.connectors,
        gmail: { ...live.t.deps.connectors.gmail, gmailApiBase: `http://127.0.0.1:${await freePort()}` },
      },
    };
    expect(await sendMail(nowhere, connector, await raw('silence@gmail.example'))).toMatchObject({
      kind: 'retryable',
      code: 'provider_unavailable',
    });
    const delivered = google.sent.length;
    google.dropNextSendAnswer();
    expect(await send(live, connector)).toMatchObject({ kind: 'uncertain', code: 'no_answer' });
    expect(google.sent.length).toBe(delivered + 1);
  });

  it('refuses with not_a_mailbox, and a 409, for a connector whose provider sends no mail', async () => {
    const connector = await connected(live, 'ads@gmail.example');
    const outcome = await send(live, { ...connector, provider: 'meta_ads' });
    expect(outcome).toMatchObject({ kind: 'refused', code: 'not_a_mailbox', problem: { code: 'conflict' } });
  });
});
