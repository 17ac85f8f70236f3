// Long work as an agent lives it, over a real MCP client on /mcp: a tool that starts work answers
// with the operation, and get_operation with wait_seconds follows it to the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTestApp, listen, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let receiver: Receiver;
let owner: SignupResult;
let client: Client;

beforeAll(async () => {
  t = await createTestApp({ jobs: 'work', env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
  server = await listen(t.app);
  receiver = await startReceiver();
  owner = await t.signup();
  client = new Client({ name: 'long-work-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${owner.token}` } },
    }),
  );
});
afterAll(async () => {
  await client?.close();
  await receiver?.close();
  await server?.close();
  await t?.close();
});

const call = async (name: string, args: Record<string, unknown>) => {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: any;
    content: { text: string }[];
  };
  return result;
};

describe('operations over MCP', () => {
  it('tells the agent to wait with wait_seconds rather than poll', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((x) => x.name === 'get_operation');
    expect(tool?.description).toMatch(/wait_seconds/);
    expect((tool?.inputSchema as { properties: Record<string, unknown> }).properties.wait_seconds).toMatchObject({
      maximum: 50,
    });
  });

  it('starts a test delivery with send_test_webhook and follows it to succeeded with get_operation', async () => {
    const created = await call('create_webhook_endpoint', { url: receiver.url, event_types: ['member.*'] });
    expect(created.isError).toBeFalsy();
    const endpoint = created.structuredContent as { id: string; secret: string };
    receiver.useSecret(endpoint.secret);
    const started = await call('send_test_webhook', { endpoint_id: endpoint.id, idempotency_key: 'test-1' });
    expect(started.isError).toBeFalsy();
    let op = started.structuredContent as { id: string; status: string };
    expect(op.id).toMatch(/^op_/);
    while (!['succeeded', 'failed', 'cancelled'].includes(op.status)) {
      const next = await call('get_operation', { operation_id: op.id, wait_seconds: 20 });
      expect(next.isError).toBeFalsy();
      op = next.structuredContent;
    }
    expect(op.status).toBe('succeeded');
    const [got] = await receiver.waitFor(1);
    expect(got.verified?.type).toBe('webhook.test');
    // The same idempotency key replays the first answer instead of sending a second message.
    const replay = await call('send_test_webhook', { endpoint_id: endpoint.id, idempotency_key: 'test-1' });
    expect((replay.structuredContent as { id: string }).id).toBe(op.id);
  });

  it('shows the statuses list_operations filters by, and filters by several given as an array', async () => {
    const { tools } = await client.listTools();
    const status = (
      tools.find((x) => x.name === 'list_operations')?.inputSchema as { properties: Record<string, unknown> }
    ).properties.status;
    expect(status).toMatchObject({
      type: 'array',
      items: { enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] },
    });
    const both = await call('list_operations', { status: ['failed', 'succeeded'], type: ['webhook_test'] });
    expect(both.isError).toBeFalsy();
    expect((both.structuredContent as { data: { status: string }[] }).data.map((o) => o.status)).toEqual(['succeeded']);
    const none = await call('list_operations', { status: ['failed', 'cancelled'] });
    expect((none.structuredContent as { data: unknown[] }).data).toEqual([]);
    const wrong = await call('list_operations', { status: ['done'] });
    expect(wrong.isError).toBe(true);
    expect(wrong.content[0].text).toMatch(/queued/);
  });

  it('answers cancel_operation on a finished operation with an isError 409', async () => {
    const ops = await call('list_operations', { status: ['succeeded'] });
    const [first] = (ops.structuredContent as { data: { id: string }[] }).data;
    const result = await call('cancel_operation', { operation_id: first.id });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^409 /);
  });
});
