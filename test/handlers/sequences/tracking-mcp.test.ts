// Tracking as an agent sees it over /mcp with the SDK client: the field round-trips through
// create_email_sequence and get_email_sequence, preview_email_sequence says it is on, and the pixel and the
// redirect are no tools.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { readyWorkspace, twoSteps, type Workspace } from './sequence-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let ws: Workspace;
let client: Client;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort());
  ws = await readyWorkspace(t, []);
  client = new Client(
    { name: 'tracking-agent', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${ws.owner.token}` } },
    }),
  );
});
afterAll(async () => {
  await client?.close().catch(() => {});
  await server?.close();
  await t?.close();
});

type Result = { isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] };
async function ok(name: string, args: Record<string, unknown>) {
  const r = (await client.callTool({ name, arguments: args })) as Result;
  expect(r.isError, `${name}: ${r.content?.[0]?.text}`).toBeFalsy();
  return r.structuredContent ?? JSON.parse(r.content[0].text);
}

describe('tracking over MCP', () => {
  it('round-trips the tracking field through create_email_sequence and get_email_sequence', async () => {
    const created = await ok('create_email_sequence', {
      ...twoSteps(ws.connector.id),
      tracking: { opens: true, clicks: false },
    });
    expect(created.tracking).toEqual({ opens: true, clicks: false });
    const got = await ok('get_email_sequence', { sequence_id: created.id });
    expect(got.tracking).toEqual({ opens: true, clicks: false });
    const preview = await ok('preview_email_sequence', { sequence_id: created.id });
    expect(preview.tracking).toEqual({ opens: true, clicks: false });
    expect(preview.checks.map((c: any) => c.code)).toContain('tracking_on');
  });

  it('defaults to off and offers no tool for the pixel or the redirect', async () => {
    const created = await ok('create_email_sequence', twoSteps(ws.connector.id));
    expect((await ok('get_email_sequence', { sequence_id: created.id })).tracking).toEqual({
      opens: false,
      clicks: false,
    });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).filter((name) => name.startsWith('track_'))).toEqual([]);
  });
});
