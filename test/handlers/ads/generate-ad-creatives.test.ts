// generate_ad_creatives with a goal alone: no campaign is needed; the finished run's output holds the
// grounded creatives (ready for create_ad_campaign as they are) and the knowledge each drew on, over REST
// and over MCP. Exactly one of campaign_id and goal is accepted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { SignupResult, TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { startSite, type Site } from '../knowledge/site.ts';
import { agentEnv, follow, ingestSite } from '../agents/agent-fixtures.ts';
import { campaignBody, connectMeta, json } from './ad-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let site: Site;
let owner: SignupResult;
let client: Client;

beforeAll(async () => {
  site = await startSite();
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'work', env: { ...agentEnv, MCP_ALLOWED_ORIGINS: '' } }));
  owner = await t.signup();
  await ingestSite(t, owner.token, site.url);
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
  await site?.close();
});

const call = (path: string, init: { method?: string; json?: unknown } = {}) =>
  t.request(`/api/v1${path}`, { token: owner.token, ...init });

function expectGrounded(output: { creatives: any[]; sources: any[] }, count: number): void {
  expect(output.creatives).toHaveLength(count);
  expect(output.sources).toHaveLength(count);
  output.creatives.forEach((c, i) => {
    expect(Object.keys(c).sort()).toEqual(
      expect.arrayContaining(['call_to_action', 'headline', 'link_url', 'primary_text']),
    );
    expect([...c.headline].length).toBeLessThanOrEqual(40);
    expect([...c.primary_text].length).toBeLessThanOrEqual(125);
    expect(new URL(c.link_url).origin).toBe(site.url);
    expect(output.sources[i].urls).toContain(c.link_url);
    expect(output.sources[i].chunk_ids.length).toBeGreaterThan(0);
  });
}

describe('generate_ad_creatives with a goal alone', () => {
  it('returns grounded creatives in the run output that create_ad_campaign takes as they are', async () => {
    const res = await call('/ad-creatives/generate', {
      method: 'POST',
      json: { goal: 'reusable rocket launches for small teams', count: 2, call_to_action: 'SIGN_UP' },
    });
    const run = await follow(t, owner.token, (await json<{ id: string }>(res, 202)).id);
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    const output = run.output as unknown as { resources: unknown[]; creatives: any[]; sources: any[] };
    expect(output.resources).toEqual([]);
    expectGrounded(output, 2);
    expect(output.creatives.every((c) => c.call_to_action === 'SIGN_UP')).toBe(true);
    const connector = await connectMeta(t, owner.token);
    const draft = await json(
      call('/ad-campaigns', { method: 'POST', json: campaignBody(connector.id, { creatives: output.creatives }) }),
      201,
    );
    expect((await json(call(`/ad-campaigns/${draft.id}`))).creatives).toEqual(output.creatives);
  });

  it('answers 400 unless exactly one of campaign_id and goal is given', async () => {
    const neither = await json(call('/ad-creatives/generate', { method: 'POST', json: { count: 1 } }), 400);
    expect(neither.code).toBe('validation_failed');
    expect(neither.detail).toMatch(/exactly one of campaign_id .* or goal/);
    const both = await json(
      call('/ad-creatives/generate', {
        method: 'POST',
        json: { campaign_id: 'adc_01jd8x6y5k2r3t4v5w6x7y8z9a', goal: 'rocket launches' },
      }),
      400,
    );
    expect(both.code).toBe('validation_failed');
  });

  it('works the same over MCP, with get_agent_run reading the creatives', async () => {
    const started = (await client.callTool({
      name: 'generate_ad_creatives',
      arguments: { goal: 'weekly booster flights', count: 1 },
    })) as { isError?: boolean; structuredContent?: any; content: Array<{ text: string }> };
    expect(started.isError, JSON.stringify(started.content)).toBeFalsy();
    const id = (started.structuredContent ?? JSON.parse(started.content[0].text)).id;
    let run: any;
    for (let i = 0; i < 10 && !['succeeded', 'failed'].includes(run?.status); i++) {
      const got = (await client.callTool({ name: 'get_agent_run', arguments: { run_id: id, wait_seconds: 10 } })) as {
        structuredContent?: any;
        content: Array<{ text: string }>;
      };
      run = got.structuredContent ?? JSON.parse(got.content[0].text);
    }
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    expectGrounded(run.output, 1);
    const refused = (await client.callTool({ name: 'generate_ad_creatives', arguments: {} })) as {
      isError?: boolean;
      content: Array<{ text: string }>;
    };
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toContain('exactly one of campaign_id');
  });
});
