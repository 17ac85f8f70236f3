// Adding capabilities to a connected Gmail connector (incremental consent): start_connector_oauth with
// reconnect_connector_id keeps it connected and sending while the consent link waits; the grant replaces its
// tokens and scopes with what the person actually allowed; a refusal leaves it as it was. Live mode against
// the strict fake Google, and sandbox mode against the service's own consent page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignupResult, TestApp } from '../../helpers/app.ts';
import { findConnector, type ConnectorRow } from '../../../src/handlers/connectors/connectors-data.ts';
import { composeGmailRaw } from '../../../src/handlers/connectors/google/mime.ts';
import { sendMail } from '../../../src/handlers/connectors/providers/providers.ts';
import { json } from '../sequences/sequence-fixtures.ts';
import { startFakeGoogle, type FakeGoogle } from './fake-google.ts';
import { playHuman, type Connector } from './human.ts';
import { listenOnReservedPort } from './listen.ts';

const SEND = 'https://www.googleapis.com/auth/gmail.send';
const METADATA = 'https://www.googleapis.com/auth/gmail.metadata';
const READONLY = 'https://www.googleapis.com/auth/gmail.readonly';

type Consent = (url: string, choice: { email: string; grant?: string[]; deny?: boolean }) => Promise<void>;
interface Site {
  t: TestApp;
  owner: SignupResult;
  consent: Consent;
  close(): Promise<void>;
}

let google: FakeGoogle;
let live: Site;
let sandbox: Site;

async function open(env: Record<string, string>, consent: Consent): Promise<Site> {
  const { app: t, server } = await listenOnReservedPort({ env });
  return { t, owner: await t.signup(), consent, close: async () => (await server.close(), await t.close()) };
}

beforeAll(async () => {
  let redirect = '';
  google = await startFakeGoogle({ redirectUri: () => redirect });
  live = await open(google.env(), async (url, choice) => {
    await fetch(await google.consent(url, choice));
  });
  redirect = `${live.t.deps.connectors.redirectUri}`;
  sandbox = await open({}, async (url, choice) => {
    await playHuman(url, choice);
  });
});
afterAll(async () => {
  await live?.close();
  await sandbox?.close();
  await google?.close();
});

const start = (site: Site, body: Record<string, unknown>, status = 201) =>
  json<Connector & { capabilities: string[] }>(
    site.t.request('/api/v1/connectors/oauth', { method: 'POST', token: site.owner.token, json: body }),
    status,
  );
const get = (site: Site, id: string) =>
  json<Connector & { capabilities: string[] }>(site.t.request(`/api/v1/connectors/${id}`, { token: site.owner.token }));

async function connected(site: Site, email: string, capabilities: string[] = ['send']) {
  const started = await start(site, { provider: 'gmail', capabilities });
  await site.consent(started.authorization_url as string, { email });
  return get(site, started.id);
}

async function sends(site: Site, id: string) {
  const row = (await findConnector(site.t.db.sql, site.owner.workspaceId, id)) as ConnectorRow;
  const raw = await composeGmailRaw({
    from: row.account_email as string,
    to: 'lead@example.com',
    subject: 'Hello',
    text: 'Hi.',
    html: '<p>Hi.</p>',
    messageId: `<${Math.random().toString(36).slice(2)}@test>`,
    date: new Date(),
  });
  return (await sendMail(site.t.deps, row, raw)).kind;
}

describe('start_connector_oauth adding capabilities to a connected Gmail connector', () => {
  for (const mode of ['live', 'sandbox'] as const) {
    const site = () => (mode === 'live' ? live : sandbox);

    it(`keeps the connector connected and sending while the consent waits, then adds what was granted (${mode})`, async () => {
      const email = `upgrade.${mode}@gmail.example`;
      const before = await connected(site(), email);
      expect(before.capabilities).toEqual(['send']);
      const pending = await start(site(), {
        provider: 'gmail',
        reconnect_connector_id: before.id,
        capabilities: ['read_replies'],
      });
      expect(pending).toMatchObject({ id: before.id, status: 'connected', capabilities: ['send'] });
      expect(pending.authorization_url).toContain('include_granted_scopes=true');
      expect(pending.next_action).toContain(pending.authorization_url as string);
      expect(await sends(site(), before.id)).toBe('sent');
      await site().consent(pending.authorization_url as string, { email });
      const after = await get(site(), before.id);
      expect(after).toMatchObject({
        status: 'connected',
        capabilities: ['send', 'read_replies'],
        authorization_url: null,
        next_action: null,
      });
      expect(after.scopes_granted).toContain(METADATA);
      expect(await sends(site(), before.id)).toBe('sent');
    });

    it(`adds only the capabilities the person allowed (${mode})`, async () => {
      const email = `partial.${mode}@gmail.example`;
      const before = await connected(site(), email);
      const pending = await start(site(), {
        provider: 'gmail',
        reconnect_connector_id: before.id,
        capabilities: ['read_reply_text'],
      });
      await site().consent(pending.authorization_url as string, { email, grant: ['openid', 'email', SEND] });
      expect(await get(site(), before.id)).toMatchObject({ status: 'connected', capabilities: ['send'] });
      expect(await sends(site(), before.id)).toBe('sent');
    });

    it(`leaves the connector as it was when the person declines (${mode})`, async () => {
      const email = `declined.${mode}@gmail.example`;
      const before = await connected(site(), email);
      const pending = await start(site(), {
        provider: 'gmail',
        reconnect_connector_id: before.id,
        capabilities: ['read_replies'],
      });
      await site().consent(pending.authorization_url as string, { email, deny: true });
      expect(await get(site(), before.id)).toMatchObject({
        status: 'connected',
        capabilities: ['send'],
        authorization_url: null,
        failure_reason: null,
      });
      expect(await sends(site(), before.id)).toBe('sent');
    });

    it(`refuses with 409 a reconnect of a connected connector that asks nothing new (${mode})`, async () => {
      const before = await connected(site(), `nothing-new.${mode}@gmail.example`, ['read_replies']);
      const refused = await start(
        site(),
        { provider: 'gmail', reconnect_connector_id: before.id, capabilities: ['send', 'read_replies'] },
        409,
      );
      expect(refused).toMatchObject({
        detail: expect.stringMatching(/already has the capabilities send, read_replies/),
      });
    });
  }

  it('asks for gmail.readonly without the earlier grant when adding reply text over gmail.metadata (live)', async () => {
    const email = 'text@gmail.example';
    const before = await connected(live, email, ['read_replies']);
    expect(before.scopes_granted).toContain(METADATA);
    const pending = await start(live, {
      provider: 'gmail',
      reconnect_connector_id: before.id,
      capabilities: ['read_reply_text'],
    });
    const url = new URL(pending.authorization_url as string);
    expect(url.searchParams.get('include_granted_scopes')).toBeNull();
    expect(url.searchParams.get('scope')?.split(' ')).toEqual(['openid', 'email', SEND, READONLY]);
    await live.consent(url.href, { email });
    const after = await get(live, before.id);
    expect(after.capabilities).toEqual(['send', 'read_replies', 'read_reply_text']);
    expect(after.scopes_granted).not.toContain(METADATA);
  });

  it('refuses the grant of another account and leaves the connector as it was (live)', async () => {
    const before = await connected(live, 'mine@gmail.example');
    const pending = await start(live, {
      provider: 'gmail',
      reconnect_connector_id: before.id,
      capabilities: ['read_replies'],
    });
    await live.consent(pending.authorization_url as string, { email: 'someone-else@gmail.example' });
    expect(await get(live, before.id)).toMatchObject({
      status: 'connected',
      account_email: 'mine@gmail.example',
      capabilities: ['send'],
      authorization_url: null,
    });
  });
});
