// What the end-to-end reply tests share: an agent on /mcp with the official SDK client (its key never
// expires, so tests may move the clock by days), the mailbox sync run as its job would, webhook deliveries
// attempted as their job would, and the lead's Gmail thread as the sandbox mailbox holds it.
import { expect } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { TestApp } from '../../helpers/app.ts';
import type { Workspace } from '../sequences/sequence-fixtures.ts';
import { syncMailbox } from '../../../src/handlers/replies/sync-mailbox.ts';
import { deliverWebhookJob } from '../../../src/handlers/webhooks/deliver.ts';

export interface Agent {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<McpResult>;
  ok(name: string, args: Record<string, unknown>): Promise<any>;
}

export type McpResult = { isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] };

export async function connectAgent(serverUrl: string, credential: string): Promise<Agent> {
  const client = new Client({ name: 'reply-e2e', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${serverUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${credential}` } },
    }),
  );
  const call = (name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args }) as Promise<McpResult>;
  return {
    client,
    call,
    async ok(name, args) {
      const r = await call(name, args);
      expect(r.isError, `${name}: ${r.content?.[0]?.text}`).toBeFalsy();
      return r.structuredContent ?? JSON.parse(r.content[0].text);
    },
  };
}

/** sync_connector_mailbox over MCP queues the sync; the test app only queues jobs, so its work runs here. */
export async function syncOverMcp(t: TestApp, agent: Agent, ws: Workspace): Promise<void> {
  await agent.ok('sync_connector_mailbox', { connector_id: ws.connector.id });
  expect(await syncMailbox(t.deps, ws.owner.workspaceId, ws.connector.id)).toBe('synced');
}

/** Attempts every pending webhook delivery of the workspace once, as the `webhooks.deliver` job does. */
export async function deliverWebhooks(t: TestApp, workspaceId: string): Promise<void> {
  const pending = await t.db.sql<{ id: string }[]>`
    select id from webhook_deliveries where workspace_id = ${workspaceId} and status = 'pending' order by id`;
  for (const { id } of pending)
    await deliverWebhookJob.handler({ workspace_id: workspaceId, delivery_id: id }, jobContext(t, id), t.deps);
}

function jobContext(t: TestApp, id: string) {
  return {
    id,
    kind: deliverWebhookJob.name,
    attempt: 1,
    signal: new AbortController().signal,
    once: <T>(_step: string, fn: (tx: any) => Promise<T>) => t.db.sql.begin((tx) => fn(tx)) as Promise<T>,
  };
}

/** The messages the sandbox mailbox holds in a Gmail thread, oldest first. */
export async function sandboxThread(t: TestApp, threadId: string) {
  return t.db.sql<{ id: string; direction: string; to_header: string; raw: string }[]>`
    select id, direction, to_header, raw from sandbox_messages where thread_id = ${threadId} order by history_id`;
}
