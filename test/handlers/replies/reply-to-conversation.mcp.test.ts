// An agent answers a lead over /mcp: even with its human's own login, a reply written through the tool server
// waits for that person (approval_url); no tool approves or rejects; the person approves over REST and the
// agent sees the reply sent in get_conversation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { json } from '../sequences/sequence-fixtures.ts';
import { conversingWorkspace, sandboxRaw, type Conversing } from './reply-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let c: Conversing;
let client: Client;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', env: { SEQUENCE_SEND_SPACING_MS: '0' } }));
  c = await conversingWorkspace(t);
  client = new Client({ name: 'reply-agent', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${c.ws.owner.token}` } },
    }),
  );
});
afterAll(async () => {
  await client?.close().catch(() => {});
  await server?.close();
  await t?.close();
});

type Result = { isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] };
const ok = async (name: string, args: Record<string, unknown>) => {
  const r = (await client.callTool({ name, arguments: args })) as Result;
  expect(r.isError, `${name}: ${r.content?.[0]?.text}`).toBeFalsy();
  return r.structuredContent ?? JSON.parse(r.content[0].text);
};

describe('replying to a lead over MCP', () => {
  it('offers the reply tools but no tool that approves or rejects a reply', async () => {
    const names = new Set((await client.listTools()).tools.map((tool) => tool.name));
    for (const name of ['list_replies', 'get_conversation', 'reply_to_conversation', 'list_conversation_replies'])
      expect(names.has(name), name).toBe(true);
    expect(names.has('approve_conversation_reply')).toBe(false);
    expect(names.has('reject_conversation_reply')).toBe(false);
  });

  it('keeps a reply written through the tool server for a person, who approves it over REST', async () => {
    const lead = c.ws.leads[0];
    const before = (await sandboxRaw(t, c.ws.owner.workspaceId)).length;
    const draft = await ok('reply_to_conversation', { lead_id: lead.id, body: 'Hi Grace, following up.' });
    expect(draft).toMatchObject({ status: 'pending_approval', sent_at: null });
    expect(draft.approval_url).toMatch(new RegExp(`/admin/approvals\\?reply=${draft.id}$`));
    expect((await sandboxRaw(t, c.ws.owner.workspaceId)).length).toBe(before);

    const pending = await ok('list_conversation_replies', { status: ['pending_approval'] });
    expect(pending.data.map((r: any) => r.id)).toEqual([draft.id]);

    const approved = await json(
      t.request(`/api/v1/conversation-replies/${draft.id}/approve`, { method: 'POST', token: c.ws.owner.token }),
    );
    expect(approved.status).toBe('sent');
    const conv = await ok('get_conversation', { lead_id: lead.id });
    expect(conv.messages.at(-1)).toMatchObject({ id: draft.id, kind: 'conversation_reply', status: 'sent' });
    expect((await sandboxRaw(t, c.ws.owner.workspaceId)).length).toBe(before + 1);
  });
});
