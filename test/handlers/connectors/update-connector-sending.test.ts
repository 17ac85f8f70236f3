// update_connector_sending over REST and over MCP: a mailbox's limits and pause, who may change them (admins,
// or the member who connected it), what is refused (a ramp above its own maximum, out-of-range fields, a
// connector that is not a mailbox, another workspace's connector), and the pause and resume events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { uniqueEmail, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from './listen.ts';
import { connectGmail, json } from '../sequences/sequence-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let owner: SignupResult;
let memberToken: string;
let ownersMailbox: string;
let membersMailbox: string;
const clients: Client[] = [];
const now = new Date('2026-11-24T12:30:00Z');

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', clock: { now: () => now } }));
  owner = await t.signup();
  const invitation = await json(
    t.request('/api/v1/invitations', {
      method: 'POST',
      token: owner.token,
      json: { email: uniqueEmail('member'), role: 'member' },
    }),
    201,
  );
  const joined = await json(
    t.request('/api/v1/invitations/accept', {
      method: 'POST',
      json: { token: invitation.token, name: 'Member', password: 'member password 1' },
    }),
    201,
  );
  memberToken = joined.login.access_token;
  ownersMailbox = (await connectGmail(t, owner.token, uniqueEmail('owner-box'))).id;
  membersMailbox = (await connectGmail(t, memberToken, uniqueEmail('member-box'))).id;
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await server?.close();
  await t?.close();
});

const patch = (connectorId: string, token: string, body: unknown) =>
  t.request(`/api/v1/connectors/${connectorId}/sending`, { method: 'PATCH', token, json: body });

async function mcp(credential: string): Promise<Client> {
  const client = new Client({ name: 'sending-agent', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${credential}` } },
    }),
  );
  clients.push(client);
  return client;
}
type Result = { isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] };

describe('update_connector_sending', () => {
  it('sets the cap, a ramp from today and the threshold, and shows them with the live numbers', async () => {
    const body = await json(
      patch(ownersMailbox, owner.token, {
        daily_cap: 120,
        warmup: { start_per_day: 10, increase_per_day: 5, max_per_day: 80 },
        bounce_rate_threshold: 0.03,
      }),
    );
    expect(body.sending).toEqual({
      daily_cap: 120,
      warmup: { start_per_day: 10, increase_per_day: 5, max_per_day: 80, started_at: now.toISOString() },
      allowed_today: 10,
      sent_last_24h: 0,
      bounce_rate_threshold: 0.03,
      paused: false,
      pause_reason: null,
      paused_at: null,
    });
    // null gives the service default back and ends the ramp; the rest stays.
    const reset = await json(patch(ownersMailbox, owner.token, { daily_cap: null, warmup: null }));
    expect(reset.sending).toMatchObject({
      daily_cap: 400,
      warmup: null,
      allowed_today: 400,
      bounce_rate_threshold: 0.03,
    });
    const listed = await json(t.request('/api/v1/connectors', { token: owner.token }));
    expect(listed.data.find((c: any) => c.id === ownersMailbox).sending).toMatchObject({ daily_cap: 400 });
  });

  it('pauses by hand with reason manual and resumes, one event each', async () => {
    const paused = await json(patch(ownersMailbox, owner.token, { paused: true }));
    expect(paused.sending).toMatchObject({ paused: true, pause_reason: 'manual', paused_at: now.toISOString() });
    await json(patch(ownersMailbox, owner.token, { paused: true }));
    const resumed = await json(patch(ownersMailbox, owner.token, { paused: false }));
    expect(resumed.sending).toMatchObject({ paused: false, pause_reason: null, paused_at: null });
    const events = await json(t.request('/api/v1/events?type=connector.*&limit=50', { token: owner.token }));
    const types = events.data.filter((e: any) => e.data.id === ownersMailbox).map((e: any) => e.type);
    expect(types.filter((x: string) => x === 'connector.sending_paused')).toHaveLength(1);
    expect(types.filter((x: string) => x === 'connector.sending_resumed')).toHaveLength(1);
  });

  it.each([
    ['a ramp that starts above its maximum', { warmup: { start_per_day: 50, increase_per_day: 1, max_per_day: 20 } }],
    ['a daily cap of 0', { daily_cap: 0 }],
    ['a threshold above 0.5', { bounce_rate_threshold: 0.9 }],
    ['an unknown field', { hourly_cap: 3 }],
    ['a ramp without its maximum', { warmup: { start_per_day: 5, increase_per_day: 1 } }],
  ])('refuses %s with 400 and changes nothing', async (_name, body) => {
    const before = await json(t.request(`/api/v1/connectors/${ownersMailbox}`, { token: owner.token }));
    const problem = await json(patch(ownersMailbox, owner.token, body), 400);
    expect(problem.errors?.length).toBeGreaterThan(0);
    const after = await json(t.request(`/api/v1/connectors/${ownersMailbox}`, { token: owner.token }));
    expect(after.sending).toEqual(before.sending);
  });

  it('answers 409 for a connector that is not a mailbox, 404 for another workspace’s', async () => {
    const meta = await json(
      t.request('/api/v1/connectors/oauth', { method: 'POST', token: owner.token, json: { provider: 'meta_ads' } }),
      201,
    );
    expect(meta.sending).toBeUndefined();
    await json(patch(meta.id, owner.token, { daily_cap: 10 }), 409);
    const stranger = await t.signup();
    await json(patch(ownersMailbox, stranger.token, { daily_cap: 10 }), 404);
  });

  it('lets a member change the mailbox they connected, and refuses theirs on another’s with 403', async () => {
    await json(patch(membersMailbox, memberToken, { daily_cap: 30 }));
    const refused = await json(patch(ownersMailbox, memberToken, { daily_cap: 30 }), 403);
    expect(refused.detail).toContain('the member who connected it');
    // The owner (an admin) may change the member's.
    await json(patch(membersMailbox, owner.token, { daily_cap: 40 }));
  });

  it('works the same over MCP: the tool sets limits, and a member gets the 403 for a mailbox they did not connect', async () => {
    const agent = await mcp(owner.token);
    const ok = (await agent.callTool({
      name: 'update_connector_sending',
      arguments: { connector_id: ownersMailbox, daily_cap: 77 },
    })) as Result;
    expect(ok.isError, ok.content?.[0]?.text).toBeFalsy();
    const body = ok.structuredContent ?? JSON.parse(ok.content[0].text);
    expect(body.sending).toMatchObject({ daily_cap: 77, allowed_today: 77 });

    const memberAgent = await mcp(memberToken);
    const refused = (await memberAgent.callTool({
      name: 'update_connector_sending',
      arguments: { connector_id: ownersMailbox, paused: true },
    })) as Result;
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toMatch(/403|forbidden/);
    const invalid = (await agent.callTool({
      name: 'update_connector_sending',
      arguments: { connector_id: ownersMailbox, warmup: { start_per_day: 9, increase_per_day: 1, max_per_day: 3 } },
    })) as Result;
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0].text).toContain('start_per_day');
    const after = await json(t.request(`/api/v1/connectors/${ownersMailbox}`, { token: owner.token }));
    expect(after.sending).toMatchObject({ daily_cap: 77, paused: false, warmup: null });
  });
});
