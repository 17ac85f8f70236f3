// The ads lifecycle as an agent lives it, with the official MCP client over Streamable HTTP against a
// listening server with jobs running, in sandbox mode: the tools carry their hints, the draft is created,
// a launch without the right confirmation is refused, the launch job builds the campaign at the sandbox
// platform, and the agent follows it to active with zero delivery, said to be the sandbox's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { SignupResult, TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { campaignBody, connectMeta } from './ad-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let owner: SignupResult;
let client: Client;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'work', env: { MCP_ALLOWED_ORIGINS: '' } }));
  owner = await t.signup();
  client = new Client({ name: 'ads-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${owner.token}` } },
    }),
  );
});
afterAll(async () => {
  await client?.close();
  await server?.close();
  await t?.close();
});

async function tool(name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: Record<string, any>;
    content?: Array<{ text?: string }>;
  };
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  return result.structuredContent ?? JSON.parse(result.content?.[0]?.text ?? 'null');
}

describe('ads over MCP in sandbox mode', () => {
  it('marks the spending tools open-world and destructive', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((x) => [x.name, x]));
    for (const name of ['launch_ad_campaign', 'resume_ad_campaign'])
      expect(byName.get(name)?.annotations).toMatchObject({ openWorldHint: true, destructiveHint: true });
    expect(byName.get('get_ad_campaign')?.annotations?.readOnlyHint).toBe(true);
  });

  it('creates, launches with the confirmed budget and follows the campaign to active with zero sandbox delivery', async () => {
    const connector = await connectMeta(t, owner.token);
    const draft = await tool('create_ad_campaign', campaignBody(connector.id));
    expect(draft).toMatchObject({ status: 'draft', mode: 'sandbox' });
    const refused = (await client.callTool({
      name: 'launch_ad_campaign',
      arguments: { campaign_id: draft.id, confirm: { daily_budget_minor: 250, currency: 'USD' } },
    })) as { isError?: boolean; content: Array<{ text: string }> };
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toContain('budget_confirmation_mismatch');
    const launching = await tool('launch_ad_campaign', {
      campaign_id: draft.id,
      confirm: { daily_budget_minor: 2500, currency: 'USD' },
    });
    expect(launching.status).toBe('launching');
    let current = launching;
    for (let i = 0; i < 100 && current.status !== 'active'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      current = await tool('get_ad_campaign', { campaign_id: draft.id });
    }
    expect(current).toMatchObject({
      status: 'active',
      mode: 'sandbox',
      delivery: { spend_minor: 0, impressions: 0, clicks: 0 },
    });
    expect(current.delivery.note).toContain('Sandbox mode');
    expect(Object.keys(current.platform_ids)).toEqual(
      expect.arrayContaining(['campaign', 'ad_set', 'creative_1', 'ad_1']),
    );
    const paused = await tool('pause_ad_campaign', { campaign_id: draft.id });
    expect(paused.status).toBe('paused');
  });
});
