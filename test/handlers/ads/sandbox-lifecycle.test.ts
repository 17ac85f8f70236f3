// An ad campaign's whole life in sandbox mode, over REST: connect a meta_ads account on the sandbox's
// Facebook Login page, create a draft, launch it with the budget confirmed, let the launch job build it
// at the sandbox ads platform, then pause, resume and archive. The sandbox records what would have been
// created and delivers nothing, and says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignupResult, TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { listSandboxAdObjects } from '../../../src/sandbox/sandbox-ads-data.ts';
import { campaignBody, confirmOf, connectMeta, json, runLaunchJob } from './ad-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let owner: SignupResult;
let connectorId: string;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue' }));
  owner = await t.signup();
  const connector = await connectMeta(t, owner.token);
  connectorId = connector.id;
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const call = (path: string, init: { method?: string; json?: unknown } = {}) =>
  t.request(`/api/v1${path}`, { token: owner.token, ...init });

describe('ads in sandbox mode', () => {
  it('connects a meta_ads account on the sandbox consent page and records its ad account', async () => {
    const connector = await json(call(`/connectors/${connectorId}`));
    expect(connector).toMatchObject({
      provider: 'meta_ads',
      status: 'connected',
      mode: 'sandbox',
      scopes_granted: ['ads_management', 'ads_read'],
    });
    expect(connector.account_email).toMatch(/^act_\d+$/);
  });

  it('creates a draft with the budget in minor units and every field as given', async () => {
    const created = await json(call('/ad-campaigns', { method: 'POST', json: campaignBody(connectorId) }), 201);
    expect(created).toMatchObject({
      status: 'draft',
      mode: 'sandbox',
      daily_budget: { amount_minor: 2500, currency: 'USD' },
      platform_ids: {},
    });
    expect(created.id).toMatch(/^adc_/);
    const listed = await json(call('/ad-campaigns?status=draft'));
    expect(listed.data.map((c: { id: string }) => c.id)).toContain(created.id);
  });

  it('launches with the budget confirmed: campaign, ad set, creative and ad created paused, then activated, delivering nothing', async () => {
    const draft = await json(call('/ad-campaigns', { method: 'POST', json: campaignBody(connectorId) }), 201);
    const launching = await json(
      call(`/ad-campaigns/${draft.id}/launch`, { method: 'POST', json: confirmOf(draft) }),
      202,
    );
    expect(launching.status).toBe('launching');
    await runLaunchJob(t, owner.workspaceId, draft.id);
    const launched = await json(call(`/ad-campaigns/${draft.id}`));
    expect(launched.status).toBe('active');
    expect(Object.keys(launched.platform_ids).sort()).toEqual(['ad_1', 'ad_set', 'campaign', 'creative_1', 'page']);
    expect(launched.delivery).toMatchObject({ spend_minor: 0, impressions: 0, clicks: 0 });
    expect(launched.delivery.note).toMatch(/Sandbox mode: nothing was created at Meta/);
    const objects = (await listSandboxAdObjects(t.db.sql, owner.workspaceId)).filter((o) =>
      Object.values(launched.platform_ids).includes(o.id),
    );
    expect(objects.map((o) => [o.kind, o.status])).toEqual([
      ['campaign', 'ACTIVE'],
      ['adset', 'ACTIVE'],
      ['adcreative', 'ACTIVE'],
      ['ad', 'ACTIVE'],
    ]);
    const adSet = objects.find((o) => o.kind === 'adset');
    expect(adSet?.fields).toMatchObject({
      daily_budget: '2500',
      targeting: { geo_locations: { countries: ['US', 'CA'] }, age_min: 25, age_max: 54 },
    });
  });

  it('pauses, resumes and archives, telling the platform each time', async () => {
    const draft = await json(call('/ad-campaigns', { method: 'POST', json: campaignBody(connectorId) }), 201);
    await json(call(`/ad-campaigns/${draft.id}/launch`, { method: 'POST', json: confirmOf(draft) }), 202);
    await runLaunchJob(t, owner.workspaceId, draft.id);
    const paused = await json(call(`/ad-campaigns/${draft.id}/pause`, { method: 'POST' }));
    expect(paused).toMatchObject({ status: 'paused', status_reason: 'paused_by_user' });
    const campaignObject = async () =>
      (await listSandboxAdObjects(t.db.sql, owner.workspaceId)).find((o) => o.id === paused.platform_ids.campaign);
    expect((await campaignObject())?.status).toBe('PAUSED');
    expect((await json(call(`/ad-campaigns/${draft.id}/pause`, { method: 'POST' }))).status).toBe('paused');
    const resumed = await json(call(`/ad-campaigns/${draft.id}/resume`, { method: 'POST' }));
    expect(resumed.status).toBe('active');
    expect((await campaignObject())?.status).toBe('ACTIVE');
    const archived = await json(call(`/ad-campaigns/${draft.id}/archive`, { method: 'POST' }));
    expect(archived.status).toBe('archived');
    expect((await campaignObject())?.status).toBe('ARCHIVED');
  });

  it('records an ad_campaign event for each state change', async () => {
    const draft = await json(call('/ad-campaigns', { method: 'POST', json: campaignBody(connectorId) }), 201);
    await json(call(`/ad-campaigns/${draft.id}/launch`, { method: 'POST', json: confirmOf(draft) }), 202);
    await runLaunchJob(t, owner.workspaceId, draft.id);
    await json(call(`/ad-campaigns/${draft.id}/pause`, { method: 'POST' }));
    const events = await json(call('/events?limit=100'));
    const mine = events.data
      .filter((e: { data: { id?: string } }) => e.data.id === draft.id)
      .map((e: { type: string }) => e.type);
    expect(mine).toEqual([
      'ad_campaign.created',
      'ad_campaign.launching',
      'ad_campaign.pending_review',
      'ad_campaign.active',
      'ad_campaign.paused',
    ]);
  });
});
