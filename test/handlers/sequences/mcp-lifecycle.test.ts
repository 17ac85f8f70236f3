// The whole sequence lifecycle as an agent lives it over /mcp with the official SDK client: it imports
// leads, creates and previews a sequence, submits it and gets the approval_url; its own approve call is
// refused (even with the owner's JWT), the human approves over REST, get_email_sequence(wait) wakes with
// `approved`, and launch_email_sequence with an import's leads sends into the sandbox mailbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, UrlElicitationRequiredError } from '@modelcontextprotocol/client';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { playHuman } from '../connectors/human.ts';
import { approvedSequence, drain, json, readyWorkspace, twoSteps, type Workspace } from './sequence-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let ws: Workspace;
const clients: Client[] = [];

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({
    jobs: 'enqueue',
    env: { SEQUENCE_SEND_SPACING_MS: '0', OPERATION_WAIT_RECHECK_MS: '600000' },
  }));
  ws = await readyWorkspace(t, []);
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await server?.close();
  await t?.close();
});

async function connect(credential: string, options: { elicitation?: boolean } = {}): Promise<Client> {
  const client = new Client(
    { name: 'sequence-agent', version: '1.0.0' },
    { capabilities: options.elicitation ? { elicitation: { url: {} } } : {}, versionNegotiation: { mode: 'auto' } },
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

describe('the sequence lifecycle over MCP', () => {
  it('lists the sequence tools with their hints', async () => {
    const client = await connect(ws.owner.token);
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of [
      'create_email_sequence',
      'preview_email_sequence',
      'submit_email_sequence_for_approval',
      'approve_email_sequence',
      'enroll_leads_in_sequence',
      'launch_email_sequence',
      'list_sent_messages',
    ])
      expect(byName.has(name), name).toBe(true);
    expect(byName.get('approve_email_sequence')?.description).toMatch(/cannot approve|only a person/i);
    expect(byName.get('launch_email_sequence')?.annotations).toMatchObject({
      openWorldHint: true,
      destructiveHint: true,
    });
    expect(byName.has('unsubscribe_one_click')).toBe(false);
  });

  it('runs import -> create -> preview -> submit -> (human approves) -> launch with the import -> sent', async () => {
    const key = await t.createKey(ws.owner.token, 'agent key');
    const agent = await connect(key.key);
    const imported = await ok(agent, 'bulk_import_leads', {
      rows: [
        { email: 'lin@example.com', first_name: 'Lin', company: 'Orbit' },
        { email: 'kai@example.com', first_name: 'Kai', company: 'Comet' },
      ],
    });
    const importId = imported.import.id;

    const draft = await ok(agent, 'create_email_sequence', {
      ...twoSteps(ws.connector.id),
      steps: [{ subject: 'Hello {{first_name}}', body: 'Hi {{first_name}}, a word for **{{company}}**.' }],
    });
    const preview = await ok(agent, 'preview_email_sequence', { sequence_id: draft.id });
    expect(preview.checks.filter((c: any) => c.severity === 'blocking')).toEqual([]);
    const submitted = await ok(agent, 'submit_email_sequence_for_approval', { sequence_id: draft.id });
    expect(submitted.status).toBe('pending_approval');
    expect(submitted.approval_url).toBe(`${server.url}/admin/approvals?sequence=${draft.id}`);

    // The agent cannot approve: not with its key, and not through the tool server even with the owner's own JWT.
    for (const client of [agent, await connect(ws.owner.token)]) {
      const refused = await call(client, 'approve_email_sequence', {
        sequence_id: draft.id,
        revision: submitted.revision,
      });
      expect(refused.isError).toBe(true);
      expect(refused.content[0].text).toContain('approval_requires_human');
      expect(refused.content[0].text).toContain(submitted.approval_url);
    }
    const early = await call(agent, 'launch_email_sequence', { sequence_id: draft.id });
    expect(early.isError).toBe(true);
    expect(early.content[0].text).toContain('sequence_not_approved');

    const waiting = call(agent, 'get_email_sequence', { sequence_id: draft.id, wait_seconds: 30 });
    await json(
      t.request(`/api/v1/sequences/${draft.id}/approve`, {
        method: 'POST',
        token: ws.owner.token,
        json: { revision: submitted.revision, note: 'Looks good' },
      }),
    );
    const woke = await waiting;
    expect(woke.structuredContent).toMatchObject({
      status: 'approved',
      approval: { decision: 'approved', note: 'Looks good' },
    });

    const launched = await ok(agent, 'launch_email_sequence', {
      sequence_id: draft.id,
      enroll: { import_id: importId },
    });
    expect(launched).toMatchObject({
      already_active: false,
      sequence: { status: 'active' },
      enrollment: { counts: { enrolled: 2, skipped: 0 } },
    });
    const again = await ok(agent, 'launch_email_sequence', { sequence_id: draft.id });
    expect(again.already_active).toBe(true);

    await drain(t);
    const sent = await ok(agent, 'list_sent_messages', { sequence_id: draft.id, status: 'sent' });
    expect(sent.data.map((m: any) => m.to).sort()).toEqual(['kai@example.com', 'lin@example.com']);
    const events = await json(t.request('/api/v1/events?type=email_sequence.*', { token: ws.owner.token }));
    expect(events.data.map((e: any) => e.type)).toEqual(
      expect.arrayContaining([
        'email_sequence.submitted',
        'email_sequence.approved',
        'email_sequence.launched',
        'email_sequence.completed',
      ]),
    );
  });

  it('hands a client that declared URL elicitation the consent link when the sender waits for consent, and launches once the human allowed', async () => {
    const seq = await approvedSequence(t, ws, {
      ...twoSteps(ws.connector.id),
      steps: [{ subject: 'Hi {{first_name}}', body: 'Hello' }],
    });
    const lead = await json(
      t.request('/api/v1/leads', {
        method: 'POST',
        token: ws.owner.token,
        json: { email: 'eli@example.com', first_name: 'Eli' },
      }),
      201,
    );
    const agent = await connect(ws.owner.token, { elicitation: true });
    // The sender's grant expired (as when Google refuses its refresh token); the agent asks for a fresh link.
    await t.deps.db.sql`update connectors set status = 'expired' where id = ${ws.connector.id}`;
    const renewing = await ok(agent, 'start_connector_oauth', {
      provider: 'gmail',
      reconnect_connector_id: ws.connector.id,
      capabilities: ['read_replies'],
    });
    expect(renewing.status).toBe('pending_consent');
    const refused = await call(agent, 'launch_email_sequence', {
      sequence_id: seq.id,
      enroll: { lead_ids: [lead.id] },
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(UrlElicitationRequiredError);
    const [elicitation] = (refused as UrlElicitationRequiredError).elicitations;
    expect(elicitation.url).toBe(renewing.authorization_url);
    await playHuman(elicitation.url, { email: ws.connector.account_email as string });
    const launched = await ok(agent, 'launch_email_sequence', { sequence_id: seq.id, enroll: { lead_ids: [lead.id] } });
    expect(launched.sequence.status).toBe('active');
  });
});
