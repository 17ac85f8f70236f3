// Live mode against the fake Graph API over real HTTP: the connector flow for meta_ads, a launch that
// creates campaign, ad set, creative and ad PAUSED and then activates them, a retry after a crash that
// creates nothing twice (also when the crash came between Meta's create and our save), the review (approval, disapproval with its reason), delivery in minor units,
// rate limits (retried later) and an expired token (connector expired, campaign needs reconnection).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { syncAdCampaign } from '../../../src/handlers/ads/sync.ts';
import { startFakeGraph, type FakeGraph } from './fake-graph.ts';
import { campaignBody, confirmOf, json, runLaunchJob } from './ad-fixtures.ts';

let t: TestApp;
let graph: FakeGraph;
let owner: SignupResult;

beforeAll(async () => {
  graph = await startFakeGraph({ redirectUri: () => t.deps.connectors.redirectUri });
  t = await createTestApp({ jobs: 'enqueue', env: graph.env() });
  owner = await t.signup();
});
afterAll(async () => {
  await t?.close();
  await graph?.close();
});

const call = (path: string, init: { method?: string; json?: unknown } = {}) =>
  t.request(`/api/v1${path}`, { token: owner.token, ...init });

async function connect(): Promise<string> {
  const started = await json(call('/connectors/oauth', { method: 'POST', json: { provider: 'meta_ads' } }), 201);
  const back = new URL(await graph.consent(started.authorization_url));
  const page = await t.request(`${back.pathname}${back.search}`);
  expect(page.status, await page.text()).toBe(200);
  return started.id;
}

async function launched(connectorId: string, body: Record<string, unknown> = {}): Promise<any> {
  const draft = await json(call('/ad-campaigns', { method: 'POST', json: campaignBody(connectorId, body) }), 201);
  await json(call(`/ad-campaigns/${draft.id}/launch`, { method: 'POST', json: confirmOf(draft) }), 202);
  return draft;
}

describe('ads in live mode against the Graph API', () => {
  let connectorId: string;
  beforeAll(async () => {
    connectorId = await connect();
  });

  it('connects the ad account through Facebook Login', async () => {
    const connector = await json(call(`/connectors/${connectorId}`));
    expect(connector).toMatchObject({
      provider: 'meta_ads',
      mode: 'live',
      status: 'connected',
      account_email: graph.adAccount,
    });
  });

  it('creates campaign, ad set, creative and ad PAUSED, then activates them and waits for review', async () => {
    const before = graph.objects.length;
    const draft = await launched(connectorId);
    await runLaunchJob(t, owner.workspaceId, draft.id);
    const made = graph.objects.slice(before);
    expect(made.map((o) => o.kind)).toEqual(['campaign', 'adset', 'adcreative', 'ad']);
    expect(made.map((o) => o.fields.status ?? null)).toEqual(['PAUSED', 'PAUSED', null, 'PAUSED']);
    expect(made.filter((o) => o.kind !== 'adcreative').map((o) => o.status)).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE']);
    const activations = graph.requests.filter((r) => r.startsWith('POST /') && made.some((o) => r === `POST /${o.id}`));
    expect(activations).toEqual([`POST /${made[3].id}`, `POST /${made[1].id}`, `POST /${made[0].id}`]);
    expect(made[1].fields).toMatchObject({ daily_budget: '2500', campaign_id: made[0].id });
    expect(made[2].fields.object_story_spec).toMatchObject({
      page_id: '555000111',
      link_data: { link: 'https://example.com/start', name: 'Outreach that writes itself' },
    });
    const c = await json(call(`/ad-campaigns/${draft.id}`));
    expect(c).toMatchObject({
      status: 'pending_review',
      effective_status: 'PENDING_REVIEW',
      ad_account_id: graph.adAccount,
    });
    expect(c.platform_ids).toMatchObject({
      campaign: made[0].id,
      ad_set: made[1].id,
      creative_1: made[2].id,
      ad_1: made[3].id,
    });
    expect(graph.refusals).toEqual([]);
  });

  it('continues after a crash mid-launch without creating anything twice', async () => {
    const before = graph.objects.length;
    const draft = await launched(connectorId);
    graph.failNext(/^POST \/act_4242\/adcreatives$/, 'server_error');
    await expect(runLaunchJob(t, owner.workspaceId, draft.id)).rejects.toThrow(/ads platform/);
    expect(graph.objects.slice(before).map((o) => o.kind)).toEqual(['campaign', 'adset']);
    await runLaunchJob(t, owner.workspaceId, draft.id);
    expect(graph.objects.slice(before).map((o) => o.kind)).toEqual(['campaign', 'adset', 'adcreative', 'ad']);
    expect((await json(call(`/ad-campaigns/${draft.id}`))).status).toBe('pending_review');
  });

  it('finds by name what a launch created but died before recording, so retries end with exactly one of each object', async () => {
    const before = graph.objects.length;
    const draft = await launched(connectorId);
    for (const edge of ['campaigns', 'adsets', 'adcreatives', 'ads'])
      graph.failNext(new RegExp(`^POST /act_4242/${edge}$`), 'lost_response');
    for (let attempt = 1; attempt <= 4; attempt++)
      await expect(runLaunchJob(t, owner.workspaceId, draft.id)).rejects.toThrow(/ads platform/);
    await runLaunchJob(t, owner.workspaceId, draft.id);
    const made = graph.objects.slice(before);
    expect(made.map((o) => o.kind)).toEqual(['campaign', 'adset', 'adcreative', 'ad']);
    const c = await json(call(`/ad-campaigns/${draft.id}`));
    expect(c).toMatchObject({
      status: 'pending_review',
      platform_ids: { campaign: made[0].id, ad_set: made[1].id, creative_1: made[2].id, ad_1: made[3].id },
    });
    expect(made[3].fields).toMatchObject({ adset_id: made[1].id, creative: { creative_id: made[2].id } });
    expect(graph.requests.filter((r) => r === 'GET /act_4242/campaigns')).not.toHaveLength(0);
    expect(graph.refusals).toEqual([]);
  });

  it('answers get_ad_campaign with wait_seconds once the launching campaign moves on', async () => {
    const draft = await launched(connectorId);
    const waiting = call(`/ad-campaigns/${draft.id}?wait_seconds=30`);
    await runLaunchJob(t, owner.workspaceId, draft.id);
    expect((await json(waiting)).status).toBe('pending_review');
  });

  it('answers get_ad_campaign with wait_seconds at once for a campaign that is not in transition', async () => {
    const draft = await json(call('/ad-campaigns', { method: 'POST', json: campaignBody(connectorId) }), 201);
    const [got, meanwhile] = await Promise.all([
      json(call(`/ad-campaigns/${draft.id}?wait_seconds=30`)),
      json(call(`/ad-campaigns/${draft.id}`)),
    ]);
    expect(got).toEqual(meanwhile);
    expect(got.status).toBe('draft');
    expect((await json(call(`/ad-campaigns/${draft.id}?wait_seconds=31`), 400)).code).toBe('validation_failed');
  });

  it('follows the review: active with delivery in minor units, or disapproved with the reason', async () => {
    const draft = await launched(connectorId);
    await runLaunchJob(t, owner.workspaceId, draft.id);
    graph.review({ approve: true });
    graph.deliver({ spend: '12.34', impressions: '4100', clicks: '87' });
    await syncAdCampaign(t.deps, owner.workspaceId, draft.id);
    expect(await json(call(`/ad-campaigns/${draft.id}`))).toMatchObject({
      status: 'active',
      delivery: { spend_minor: 1234, impressions: 4100, clicks: 87 },
    });
    graph.review({ disapprove: 'Your ad makes claims about results that are unlikely.' });
    await syncAdCampaign(t.deps, owner.workspaceId, draft.id);
    const c = await json(call(`/ad-campaigns/${draft.id}`));
    expect(c).toMatchObject({
      status: 'disapproved',
      effective_status: 'DISAPPROVED',
      status_reason: 'Your ad makes claims about results that are unlikely.',
    });
    graph.review('pending');
    graph.deliver(undefined);
  });

  it('backs off on a rate limit and finishes the launch on the retry', async () => {
    const before = graph.objects.length;
    const draft = await launched(connectorId);
    graph.failNext(/^POST \/act_4242\/adsets$/, 'rate_limit');
    await expect(runLaunchJob(t, owner.workspaceId, draft.id)).rejects.toThrow(/rate limit/);
    expect((await json(call(`/ad-campaigns/${draft.id}`))).status_reason).toBe('rate_limited');
    await runLaunchJob(t, owner.workspaceId, draft.id);
    expect(graph.objects.slice(before).map((o) => o.kind)).toEqual(['campaign', 'adset', 'adcreative', 'ad']);
    expect(await json(call(`/ad-campaigns/${draft.id}`))).toMatchObject({
      status: 'pending_review',
      status_reason: null,
    });
  });
});

describe('an expired Meta token', () => {
  it('expires the connector, marks the campaign as needing reconnection, and resumes the launch after reconnecting', async () => {
    const connectorId = await connect();
    const before = graph.objects.length;
    const draft = await launched(connectorId);
    graph.failNext(/^POST \/act_4242\/adsets$/, 'token_expired');
    await runLaunchJob(t, owner.workspaceId, draft.id);
    expect((await json(call(`/connectors/${connectorId}`))).status).toBe('expired');
    expect(await json(call(`/ad-campaigns/${draft.id}`))).toMatchObject({
      status: 'launching',
      status_reason: 'needs_reconnection',
    });
    const refused = await json(call(`/ad-campaigns/${draft.id}/resume`, { method: 'POST' }), 409);
    expect(refused.code).toBe('connector_not_connected');
    const again = await json(
      call('/connectors/oauth', {
        method: 'POST',
        json: { provider: 'meta_ads', reconnect_connector_id: connectorId },
      }),
      201,
    );
    const back = new URL(await graph.consent(again.authorization_url));
    expect((await t.request(`${back.pathname}${back.search}`)).status).toBe(200);
    expect((await json(call(`/ad-campaigns/${draft.id}/resume`, { method: 'POST' }))).status).toBe('launching');
    await runLaunchJob(t, owner.workspaceId, draft.id, `job-${draft.id}-after-reconnect`);
    expect(graph.objects.slice(before).map((o) => o.kind)).toEqual(['campaign', 'adset', 'adcreative', 'ad']);
    expect((await json(call(`/ad-campaigns/${draft.id}`))).status).toBe('pending_review');
  });
});
