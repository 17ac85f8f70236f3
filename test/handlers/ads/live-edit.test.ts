// Live mode against the strict fake Graph API over HTTP: a paused campaign's edits go to the platform
// objects (campaign name, ad set budget / end / targeting, new creatives with the ads pointed at them)
// before they are saved; a new budget needs the confirm echo; a platform error leaves the record as it
// was; a delivering campaign must be paused first. Interests reach Meta as ids from its targeting search,
// and a launch naming an interest Meta does not know is refused before anything is created.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { startFakeGraph, FAKE_INTERESTS, type FakeGraph } from './fake-graph.ts';
import { campaignBody, confirmOf, json, runLaunchJob } from './ad-fixtures.ts';

let t: TestApp;
let graph: FakeGraph;
let owner: SignupResult;
let connectorId: string;

const call = (path: string, init: { method?: string; json?: unknown } = {}) =>
  t.request(`/api/v1${path}`, { token: owner.token, ...init });

beforeAll(async () => {
  graph = await startFakeGraph({ redirectUri: () => t.deps.connectors.redirectUri });
  t = await createTestApp({ jobs: 'enqueue', env: graph.env() });
  owner = await t.signup();
  connectorId = await connect();
});

async function connect(): Promise<string> {
  const started = await json(call('/connectors/oauth', { method: 'POST', json: { provider: 'meta_ads' } }), 201);
  const back = new URL(await graph.consent(started.authorization_url));
  expect((await t.request(`${back.pathname}${back.search}`)).status).toBe(200);
  return started.id;
}
afterAll(async () => {
  await t?.close();
  await graph?.close();
});

async function launched(body: Record<string, unknown> = {}, connector = connectorId): Promise<any> {
  const draft = await json(call('/ad-campaigns', { method: 'POST', json: campaignBody(connector, body) }), 201);
  await json(call(`/ad-campaigns/${draft.id}/launch`, { method: 'POST', json: confirmOf(draft) }), 202);
  await runLaunchJob(t, owner.workspaceId, draft.id);
  return json(call(`/ad-campaigns/${draft.id}`));
}

async function pausedCampaign(): Promise<any> {
  const c = await launched();
  return json(call(`/ad-campaigns/${c.id}/pause`, { method: 'POST' }));
}

const creative = (n: number) => ({
  headline: `Headline ${n}`,
  primary_text: `Primary text number ${n}.`,
  link_url: `https://example.com/${n}`,
  call_to_action: 'SIGN_UP',
});

describe('interests at launch', () => {
  it('sends interests as Meta interest ids in flexible_spec', async () => {
    const c = await launched();
    const adSet = graph.objects.find((o) => o.id === c.platform_ids.ad_set);
    expect(adSet?.fields.targeting).toEqual({
      geo_locations: { countries: ['US', 'CA'] },
      age_min: 25,
      age_max: 54,
      flexible_spec: [{ interests: [FAKE_INTERESTS[0]] }],
    });
    expect(graph.requests).toContain('GET /search');
  });

  it('refuses a launch naming an interest Meta does not know, before anything is created', async () => {
    const before = graph.objects.length;
    const draft = await json(
      call('/ad-campaigns', {
        method: 'POST',
        json: campaignBody(connectorId, {
          targeting: {
            countries: ['US'],
            age_min: 18,
            age_max: 65,
            interests: ['Small business', 'Underwater basket weaving'],
          },
        }),
      }),
      201,
    );
    const refused = await json(
      call(`/ad-campaigns/${draft.id}/launch`, { method: 'POST', json: confirmOf(draft) }),
      400,
    );
    expect(refused.detail).toContain('"Underwater basket weaving"');
    expect(refused.detail).not.toContain('"Small business"');
    expect(refused.errors).toEqual([
      expect.objectContaining({
        field: 'targeting.interests',
        code: 'unknown_interest',
        message: 'Underwater basket weaving',
      }),
    ]);
    expect((await json(call(`/ad-campaigns/${draft.id}`))).status).toBe('draft');
    expect(graph.objects.length).toBe(before);
  });

  it('puts a launch back to draft, naming the interest, when Meta stopped knowing it before the job ran', async () => {
    const before = graph.objects.length;
    const draft = await json(
      call('/ad-campaigns', {
        method: 'POST',
        json: campaignBody(connectorId, {
          targeting: { countries: ['US'], age_min: 18, age_max: 65, interests: ['Online advertising'] },
        }),
      }),
      201,
    );
    await json(call(`/ad-campaigns/${draft.id}/launch`, { method: 'POST', json: confirmOf(draft) }), 202);
    const removed = FAKE_INTERESTS.splice(2, 1);
    try {
      await runLaunchJob(t, owner.workspaceId, draft.id);
    } finally {
      FAKE_INTERESTS.push(...removed);
    }
    const c = await json(call(`/ad-campaigns/${draft.id}`));
    expect(c.status).toBe('draft');
    expect(c.status_reason).toContain('"Online advertising"');
    expect(graph.objects.length).toBe(before);
  });
});

describe('update_ad_campaign on a paused campaign', () => {
  it('pushes name, budget, end, targeting and creatives to the platform objects, then saves them', async () => {
    const c = await pausedCampaign();
    const edits = graph.edits.length;
    const patch = {
      name: 'Spring launch, second wave',
      daily_budget: { amount_minor: 4000, currency: 'USD' },
      confirm: { daily_budget_minor: 4000, currency: 'USD' },
      end_at: '2030-04-15T00:00:00.000Z',
      targeting: { countries: ['DE'], age_min: 30, age_max: 60, interests: ['small business'] },
      creatives: [creative(1), creative(2)],
    };
    const updated = await json(call(`/ad-campaigns/${c.id}`, { method: 'PATCH', json: patch }));
    expect(updated).toMatchObject({
      status: 'paused',
      name: patch.name,
      daily_budget: patch.daily_budget,
      end_at: patch.end_at,
      creatives: patch.creatives,
    });
    const byId = (id: string) => graph.objects.find((o) => o.id === id);
    expect(byId(c.platform_ids.campaign)?.fields.name).toBe(`Spring launch, second wave [${c.id}]`);
    expect(byId(c.platform_ids.ad_set)?.fields).toMatchObject({
      daily_budget: '4000',
      end_time: patch.end_at,
      targeting: {
        geo_locations: { countries: ['DE'] },
        age_min: 30,
        age_max: 60,
        flexible_spec: [{ interests: [FAKE_INTERESTS[1]] }],
      },
    });
    expect(updated.platform_ids.ad_1).toBe(c.platform_ids.ad_1);
    expect(updated.platform_ids.creative_1).not.toBe(c.platform_ids.creative_1);
    expect(byId(updated.platform_ids.ad_1)?.fields.creative).toEqual({ creative_id: updated.platform_ids.creative_1 });
    expect(byId(updated.platform_ids.ad_2)).toMatchObject({
      kind: 'ad',
      status: 'ACTIVE',
      fields: { adset_id: c.platform_ids.ad_set, creative: { creative_id: updated.platform_ids.creative_2 } },
    });
    expect(byId(updated.platform_ids.creative_2)?.fields.object_story_spec).toMatchObject({
      link_data: { name: 'Headline 2', link: 'https://example.com/2' },
    });
    expect(byId(c.platform_ids.campaign)?.status).toBe('PAUSED');
    expect(graph.edits.length).toBeGreaterThan(edits);
    expect(graph.refusals).toEqual([]);
  });

  it('refuses a new budget without the confirm echo, changing nothing', async () => {
    const c = await pausedCampaign();
    const edits = graph.edits.length;
    const refused = await json(
      call(`/ad-campaigns/${c.id}`, {
        method: 'PATCH',
        json: {
          daily_budget: { amount_minor: 9000, currency: 'USD' },
          confirm: { daily_budget_minor: 2500, currency: 'USD' },
        },
      }),
      409,
    );
    expect(refused.code).toBe('budget_confirmation_mismatch');
    expect(refused.detail).toContain('daily_budget_minor: 9000');
    expect(graph.edits.length).toBe(edits);
    expect((await json(call(`/ad-campaigns/${c.id}`))).daily_budget.amount_minor).toBe(2500);
  });

  it('leaves the record unchanged and says why when the platform refuses the edit', async () => {
    const c = await pausedCampaign();
    const before = await json(call(`/ad-campaigns/${c.id}`));
    graph.failNext(new RegExp(`^POST /${c.platform_ids.ad_set}$`), 'server_error');
    const failed = await json(
      call(`/ad-campaigns/${c.id}`, {
        method: 'PATCH',
        json: {
          end_at: '2030-05-01T00:00:00.000Z',
          daily_budget: { amount_minor: 3000, currency: 'USD' },
          confirm: { daily_budget_minor: 3000, currency: 'USD' },
        },
      }),
      502,
    );
    expect(failed.code).toBe('provider_unavailable');
    expect(failed.detail).toMatch(/ads platform/);
    expect(await json(call(`/ad-campaigns/${c.id}`))).toEqual(before);
  });

  it('refuses an interest Meta does not know before sending anything', async () => {
    const c = await pausedCampaign();
    const edits = graph.edits.length;
    const refused = await json(
      call(`/ad-campaigns/${c.id}`, {
        method: 'PATCH',
        json: {
          name: 'Renamed',
          targeting: { countries: ['US'], age_min: 18, age_max: 65, interests: ['Quantum knitting'] },
        },
      }),
      400,
    );
    expect(refused.detail).toContain('"Quantum knitting"');
    expect(graph.edits.length).toBe(edits);
    expect((await json(call(`/ad-campaigns/${c.id}`))).name).toBe('Spring launch');
  });

  it('answers 409 ad_campaign_not_paused for a campaign in review, and refuses changing the objective once launched', async () => {
    const c = await launched();
    expect(c.status).toBe('pending_review');
    const refused = await json(call(`/ad-campaigns/${c.id}`, { method: 'PATCH', json: { name: 'Too early' } }), 409);
    expect(refused.code).toBe('ad_campaign_not_paused');
    expect(refused.detail).toContain('pause_ad_campaign');
    await json(call(`/ad-campaigns/${c.id}/pause`, { method: 'POST' }));
    const fixed = await json(
      call(`/ad-campaigns/${c.id}`, { method: 'PATCH', json: { objective: 'OUTCOME_SALES' } }),
      409,
    );
    expect(fixed).toMatchObject({ code: 'ad_campaign_state_conflict' });
    expect(fixed.detail).toContain('objective');
  });
});

describe('archive_ad_campaign without a connected connector', () => {
  it('archives at the platform while the connector is connected', async () => {
    const c = await launched();
    const archived = await json(call(`/ad-campaigns/${c.id}/archive`, { method: 'POST' }));
    expect(archived.status).toBe('archived');
    expect(archived.note).toBeUndefined();
    expect(graph.objects.find((o) => o.id === c.platform_ids.campaign)?.status).toBe('ARCHIVED');
  });

  it('archives here only, with a note, when the connector was revoked', async () => {
    const other = await connect();
    const c = await launched({}, other);
    await json(call(`/connectors/${other}`, { method: 'DELETE' }));
    const archived = await json(call(`/ad-campaigns/${c.id}/archive`, { method: 'POST' }));
    expect(archived).toMatchObject({ status: 'archived', status_reason: 'archived_locally_only' });
    expect(archived.note).toMatch(/could not be archived at Meta/);
    expect(archived.note).toContain(`Meta campaign ${c.platform_ids.campaign}`);
    expect(graph.objects.find((o) => o.id === c.platform_ids.campaign)?.status).toBe('ACTIVE');
    expect((await json(call(`/ad-campaigns/${c.id}`))).status).toBe('archived');
  });

  // Last in the file: the fake forgets every token when it answers 190.
  it('archives here only, with a note, when Meta says the token is dead, and at Meta too once reconnected', async () => {
    const other = await connect();
    const c = await launched({}, other);
    graph.failNext(new RegExp(`^POST /${c.platform_ids.campaign}$`), 'token_expired');
    const archived = await json(call(`/ad-campaigns/${c.id}/archive`, { method: 'POST' }));
    expect(archived).toMatchObject({ status: 'archived', status_reason: 'archived_locally_only' });
    expect(archived.note).toMatch(/not connected/);
    expect((await json(call(`/connectors/${other}`))).status).toBe('expired');
    const again = await json(
      call('/connectors/oauth', { method: 'POST', json: { provider: 'meta_ads', reconnect_connector_id: other } }),
      201,
    );
    const back = new URL(await graph.consent(again.authorization_url));
    expect((await t.request(`${back.pathname}${back.search}`)).status).toBe(200);
    const done = await json(call(`/ad-campaigns/${c.id}/archive`, { method: 'POST' }));
    expect(done).toMatchObject({ status: 'archived', status_reason: null });
    expect(done.note).toBeUndefined();
    expect(graph.objects.find((o) => o.id === c.platform_ids.campaign)?.status).toBe('ARCHIVED');
  });
});
