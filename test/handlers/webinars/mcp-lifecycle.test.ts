// A webinar as an agent runs it over /mcp with the official SDK client (an API key): schedule, add
// registrants, read them back, move the time, cancel; the invitations land in the sandbox mailbox, and
// the tools refuse what the REST API refuses (no sender, another workspace's webinar).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { readyWorkspace, type Workspace } from '../sequences/sequence-fixtures.ts';
import { icsProps, sandboxMail, sendMail, webinarBody } from './webinar-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let ws: Workspace;
let now = new Date('2026-11-24T10:00:00Z');
const clients: Client[] = [];

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', clock: { now: () => now } }));
  ws = await readyWorkspace(t);
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await server?.close();
  await t?.close();
});

async function connect(credential: string): Promise<Client> {
  const client = new Client(
    { name: 'webinar-agent', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${credential}` } },
    }),
  );
  clients.push(client);
  return client;
}

type Result = { isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] };
const call = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<Result>;
const ok = async (client: Client, name: string, args: Record<string, unknown>) => {
  const r = await call(client, name, args);
  expect(r.isError, `${name}: ${r.content?.[0]?.text}`).toBeFalsy();
  return r.structuredContent ?? JSON.parse(r.content[0].text);
};

describe('webinars over MCP', () => {
  it('lists the webinar tools, and not the browser pages', async () => {
    const { tools } = await (await connect(ws.owner.token)).listTools();
    const names = new Set(tools.map((tool) => tool.name));
    for (const name of [
      'schedule_webinar',
      'get_webinar',
      'list_webinars',
      'update_webinar',
      'cancel_webinar',
      'add_webinar_registrants',
      'list_webinar_registrants',
      'remove_webinar_registrant',
    ])
      expect(names.has(name), name).toBe(true);
    for (const name of ['webinar_registration_page', 'webinar_register', 'webinar_join'])
      expect(names.has(name), name).toBe(false);
    expect(tools.find((tool) => tool.name === 'schedule_webinar')?.description).toMatch(/start_connector_oauth/);
  });

  it('runs schedule -> add registrants -> list -> move the time -> cancel, mailing each step', async () => {
    const agent = await connect((await t.createKey(ws.owner.token, 'agent')).key);
    const webinar = await ok(agent, 'schedule_webinar', webinarBody());
    expect(webinar).toMatchObject({ status: 'scheduled' });
    expect(webinar.registration_url).toContain('/webinars/wbp_');
    const added = await ok(agent, 'add_webinar_registrants', {
      webinar_id: webinar.id,
      registrants: [
        { email: 'mo@example.com', first_name: 'Mo' },
        { lead_id: ws.leads[1].id },
        { email: 'mo@example.com' },
      ],
    });
    expect(added.results.map((r: any) => r.reason ?? r.status)).toEqual(['added', 'added', 'duplicate']);
    const listed = await ok(agent, 'list_webinar_registrants', { webinar_id: webinar.id });
    expect(listed.data.map((r: any) => r.email).sort()).toEqual(['alan@example.com', 'mo@example.com']);
    expect(await sendMail(t)).toBe(2);

    now = new Date(now.getTime() + 60_000);
    const moved = await ok(agent, 'update_webinar', { webinar_id: webinar.id, start_at: '2026-11-28T09:30:00Z' });
    expect(moved.start_at).toBe('2026-11-28T09:30:00.000Z');
    expect(await sendMail(t)).toBe(2);
    now = new Date(now.getTime() + 60_000);
    expect((await ok(agent, 'cancel_webinar', { webinar_id: webinar.id })).status).toBe('cancelled');
    expect(await sendMail(t)).toBe(2);

    const mail = await sandboxMail(t, ws.owner.workspaceId);
    const sequences = mail.map((m) => [icsProps(m.calendar as string).METHOD, icsProps(m.calendar as string).SEQUENCE]);
    expect(sequences).toEqual([
      ['REQUEST', '0'],
      ['REQUEST', '0'],
      ['REQUEST', '1'],
      ['REQUEST', '1'],
      ['CANCEL', '2'],
      ['CANCEL', '2'],
    ]);
    const got = await ok(agent, 'get_webinar', { webinar_id: webinar.id });
    expect(got).toMatchObject({ status: 'cancelled', registered: 2, invitation_sequence: 2 });
    expect((await ok(agent, 'list_webinars', {})).data.map((w: any) => w.id)).toContain(webinar.id);
  });

  it("answers a tool error for another workspace's webinar and for a workspace without a sender", async () => {
    const mine = await ok(await connect(ws.owner.token), 'schedule_webinar', webinarBody());
    const stranger = await t.signup();
    const other = await connect(stranger.token);
    for (const [name, args] of [
      ['get_webinar', { webinar_id: mine.id }],
      ['add_webinar_registrants', { webinar_id: mine.id, registrants: [{ email: 'x@example.com' }] }],
      ['cancel_webinar', { webinar_id: mine.id }],
    ] as const) {
      const r = await call(other, name, args);
      expect(r.isError, name).toBe(true);
      expect(r.content[0].text, name).toMatch(/not_found|No webinar/);
    }
    const refused = await call(other, 'schedule_webinar', webinarBody());
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toMatch(/connector_not_connected/);
    expect(refused.content[0].text).toMatch(/start_connector_oauth/);
  });
});
