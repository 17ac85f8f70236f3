// A workspace ready to send: an owner, Gmail connected in sandbox mode (or against the fake Google), the
// postal address set and a few leads; plus `drain`, which runs the dispatcher and each mailbox's sender
// in this process until nothing is due, as the jobs would.
import { expect } from 'vitest';
import type { TestApp, SignupResult } from '../../helpers/app.ts';
import type { FakeGoogle } from '../connectors/fake-google.ts';
import { playHuman, type Connector } from '../connectors/human.ts';
import { dispatchDue, sendFromMailbox } from '../../../src/handlers/sequences/sender.ts';

export interface Workspace {
  owner: SignupResult;
  connector: Connector;
  leads: Array<{ id: string; email: string }>;
}

export async function json<T = any>(res: Response | Promise<Response>, status = 200): Promise<T> {
  const r = await res;
  const body = await r.text();
  expect(r.status, body).toBe(status);
  return (body ? JSON.parse(body) : undefined) as T;
}

/** A fresh login for the owner (after a test moved its clock past the token's lifetime). */
export async function relogin(t: TestApp, ws: Workspace): Promise<void> {
  const res = await json(
    t.request('/api/v1/users/login', { method: 'POST', json: { email: ws.owner.email, password: ws.owner.password } }),
  );
  ws.owner.token = res.access_token;
}

/** The human at the consent page: allows `account` for the authorization URL the service gave. */
export type Consent = (authorizationUrl: string, account: string) => Promise<void>;

/** The sandbox's own consent page, answered as a person would (sandbox mode). */
export const sandboxConsent: Consent = async (authorizationUrl, account) => {
  const page = await playHuman(authorizationUrl, { email: account });
  expect(page.status).toBe(200);
};

/** The fake Google's consent (live mode). */
export const googleConsent =
  (google: FakeGoogle): Consent =>
  async (authorizationUrl, account) => {
    await fetch(await google.consent(authorizationUrl, { email: account }));
  };

/** Connects Gmail as `account`; by default able to read replies, as a sequence that stops on replies needs. */
export async function connectGmail(
  t: TestApp,
  token: string,
  account: string,
  consent: Consent = sandboxConsent,
  capabilities: string[] = ['read_replies'],
): Promise<Connector> {
  const started = await json<Connector>(
    t.request('/api/v1/connectors/oauth', { method: 'POST', token, json: { provider: 'gmail', capabilities } }),
    201,
  );
  await consent(started.authorization_url as string, account);
  return json<Connector>(t.request(`/api/v1/connectors/${started.id}`, { token }));
}

export interface WorkspaceOptions {
  signup?: Record<string, string>;
  /** The Gmail account the human allows; default one per owner. */
  account?: string;
  postalAddress?: string;
  /** Default sandboxConsent. */
  consent?: Consent;
  /** What the connector may do; default ['read_replies']. */
  capabilities?: string[];
}

export async function readyWorkspace(
  t: TestApp,
  leads: Array<Record<string, unknown>> = defaultLeads(),
  options: WorkspaceOptions = {},
): Promise<Workspace> {
  const owner = await t.signup(options.signup);
  const connector = await connectGmail(
    t,
    owner.token,
    options.account ?? `sales.${owner.email.split('@')[0]}@sandbox.example`,
    options.consent,
    options.capabilities,
  );
  await json(
    t.request('/api/v1/workspace/settings', {
      method: 'PATCH',
      token: owner.token,
      json: { postal_address: options.postalAddress ?? 'Acme Ltd, 1 Main St, Springfield' },
    }),
  );
  const created = [];
  for (const lead of leads)
    created.push(
      await json<{ id: string; email: string }>(
        t.request('/api/v1/leads', { method: 'POST', token: owner.token, json: lead }),
        201,
      ),
    );
  return { owner, connector, leads: created };
}

/** readyWorkspace with Gmail connected in live mode through the fake Google, as `account`. */
export async function liveWorkspace(
  t: TestApp,
  google: FakeGoogle,
  account: string,
  leads: Array<Record<string, unknown>> = [],
): Promise<Workspace> {
  const ws = await readyWorkspace(t, leads, { account, consent: googleConsent(google) });
  expect(ws.connector).toMatchObject({ status: 'connected', mode: 'live' });
  return ws;
}

export function defaultLeads(): Array<Record<string, unknown>> {
  return [
    { email: 'grace@example.com', first_name: 'Grace', company: 'Navy', custom_fields: { plan: 'pro' } },
    { email: 'alan@example.com', first_name: 'Alan', company: 'Bletchley', custom_fields: { plan: 'team' } },
    { email: 'nobody@example.com', company: 'Anon', custom_fields: { plan: 'free' } },
  ];
}

/** `n` leads with numbered addresses (`<tag>0@example.com`, …), each with the fields the sample steps use. */
export const numberedLeads = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => ({
    email: `${tag}${i}@example.com`,
    first_name: `P${i}`,
    company: 'Co',
    custom_fields: { plan: 'p' },
  }));

export const twoSteps = (connectorId: string | null) => ({
  name: 'Intro',
  sender_connector_id: connectorId,
  schedule: { timezone: 'UTC', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start_hour: 0, end_hour: 24 },
  daily_limit: 100,
  steps: [
    {
      subject: 'Hello {{first_name | "there"}} at {{company}}',
      body: 'Hi {{first_name | "there"}},\n\nWe help **{{company}}** on the *{{custom.plan}}* plan. [Book a call](https://example.com/book)\n\n- fast\n- safe',
    },
    { wait_days: 2, subject: 'Following up', body: 'Just checking in, {{first_name | "friend"}}.' },
  ],
});

/** Creates, submits and approves (as the owner, a person) a sequence; returns it. */
export async function approvedSequence(
  t: TestApp,
  ws: Workspace,
  body: Record<string, unknown> = twoSteps(ws.connector.id),
): Promise<any> {
  const token = ws.owner.token;
  const seq = await json(t.request('/api/v1/sequences', { method: 'POST', token, json: body }), 201);
  const submitted = await json(t.request(`/api/v1/sequences/${seq.id}/submit`, { method: 'POST', token }));
  expect(submitted.status).toBe('pending_approval');
  return json(
    t.request(`/api/v1/sequences/${seq.id}/approve`, { method: 'POST', token, json: { revision: submitted.revision } }),
  );
}

/** A sequence (two steps by default) from the workspace's mailbox, approved and launched to every lead; returns its id. */
export async function launchedToEveryLead(
  t: TestApp,
  ws: Workspace,
  body: Record<string, unknown> = twoSteps(ws.connector.id),
): Promise<string> {
  const seq = await approvedSequence(t, ws, body);
  await json(
    t.request(`/api/v1/sequences/${seq.id}/launch`, {
      method: 'POST',
      token: ws.owner.token,
      json: { enroll: { lead_ids: ws.leads.map((l) => l.id) } },
    }),
  );
  return seq.id;
}

/** A one-step sequence from the workspace's mailbox, approved and launched to every lead; returns its id. */
export const launchedOneStep = (t: TestApp, ws: Workspace): Promise<string> =>
  launchedToEveryLead(t, ws, { ...twoSteps(ws.connector.id), steps: [twoSteps(null).steps[0]] });

/** Runs the dispatcher and every mailbox's sender, as the jobs would, until nothing is left to dispatch (bounded). */
export async function drain(t: TestApp, passes = 5): Promise<void> {
  for (let pass = 0; pass < passes; pass++) {
    const mailboxes = await dispatchDue(t.deps);
    if (mailboxes.length === 0) return;
    for (const m of mailboxes) await sendFromMailbox(t.deps, m);
  }
}
