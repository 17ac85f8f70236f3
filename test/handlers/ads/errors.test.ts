// What an ads call refuses, and why: a launch whose confirmation does not repeat the budget, a campaign
// without a connected meta_ads connector, edits after launch, invalid drafts; campaigns of another
// workspace are 404; idempotency keys replay creates and launches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignupResult, TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { campaignBody, confirmOf, connectMeta, json, runLaunchJob } from './ad-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let owner: SignupResult;
let connectorId: string;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue' }));
  owner = await t.signup();
  connectorId = (await connectMeta(t, owner.token)).id;
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const call = (
  path: string,
  init: { method?: string; json?: unknown; token?: string; headers?: Record<string, string> } = {},
) => t.request(`/api/v1${path}`, { token: owner.token, ...init });
const draft = (body: Record<string, unknown> = {}) =>
  json(call('/ad-campaigns', { method: 'POST', json: campaignBody(connectorId, body) }), 201);

describe('launch_ad_campaign', () => {
  it('refuses with 409 budget_confirmation_mismatch unless confirm repeats the budget exactly, launching nothing', async () => {
    const c = await draft();
    for (const confirm of [
      { daily_budget_minor: 25, currency: 'USD' },
      { daily_budget_minor: 2500, currency: 'EUR' },
      { daily_budget_minor: 2501, currency: 'USD' },
    ]) {
      const refused = await json(call(`/ad-campaigns/${c.id}/launch`, { method: 'POST', json: { confirm } }), 409);
      expect(refused.code).toBe('budget_confirmation_mismatch');
      expect(refused.detail).toContain('daily_budget_minor: 2500, currency: "USD"');
    }
    expect((await json(call(`/ad-campaigns/${c.id}`))).status).toBe('draft');
  });

  it('refuses a float budget in the confirmation', async () => {
    const c = await draft();
    await json(
      call(`/ad-campaigns/${c.id}/launch`, {
        method: 'POST',
        json: { confirm: { daily_budget_minor: 25.0001, currency: 'USD' } },
      }),
      400,
    );
  });

  it('answers 409 connector_not_connected with how to reconnect when the connector is not connected', async () => {
    const pending = await json(call('/connectors/oauth', { method: 'POST', json: { provider: 'meta_ads' } }), 201);
    const c = await json(call('/ad-campaigns', { method: 'POST', json: campaignBody(pending.id) }), 201);
    const refused = await json(call(`/ad-campaigns/${c.id}/launch`, { method: 'POST', json: confirmOf(c) }), 409);
    expect(refused.code).toBe('connector_not_connected');
    expect(refused.detail).toContain(pending.authorization_url);
  });

  it('replays the first answer for a repeated idempotency key, and relaunching a launched campaign changes nothing', async () => {
    const c = await draft();
    const headers = { 'idempotency-key': `launch-${c.id}` };
    const first = await json(
      call(`/ad-campaigns/${c.id}/launch`, { method: 'POST', json: confirmOf(c), headers }),
      202,
    );
    const again = await json(
      call(`/ad-campaigns/${c.id}/launch`, { method: 'POST', json: confirmOf(c), headers }),
      202,
    );
    expect(again).toEqual(first);
    await runLaunchJob(t, owner.workspaceId, c.id);
    expect((await json(call(`/ad-campaigns/${c.id}/launch`, { method: 'POST', json: confirmOf(c) }), 202)).status).toBe(
      'active',
    );
  });
});

describe('create_ad_campaign and update_ad_campaign', () => {
  it('creates once per idempotency key', async () => {
    const headers = { 'idempotency-key': 'create-campaign-1' };
    const first = await json(call('/ad-campaigns', { method: 'POST', json: campaignBody(connectorId), headers }), 201);
    const second = await json(call('/ad-campaigns', { method: 'POST', json: campaignBody(connectorId), headers }), 201);
    expect(second.id).toBe(first.id);
  });

  it("refuses creatives past Meta's text limits, ages out of order and a connector of another provider", async () => {
    const long = await json(
      call('/ad-campaigns', {
        method: 'POST',
        json: campaignBody(connectorId, {
          creatives: [
            {
              headline: 'h'.repeat(41),
              primary_text: 'p',
              link_url: 'https://example.com',
              call_to_action: 'LEARN_MORE',
            },
          ],
        }),
      }),
      400,
    );
    expect(long.code).toBe('validation_failed');
    const ages = await json(
      call('/ad-campaigns', {
        method: 'POST',
        json: campaignBody(connectorId, { targeting: { countries: ['US'], age_min: 50, age_max: 30 } }),
      }),
      400,
    );
    expect(ages.errors.map((e: { field: string }) => e.field)).toContain('targeting.age_min');
    const gmail = await json(call('/connectors/oauth', { method: 'POST', json: { provider: 'gmail' } }), 201);
    const wrong = await json(call('/ad-campaigns', { method: 'POST', json: campaignBody(gmail.id) }), 400);
    expect(wrong.errors[0].code).toBe('wrong_provider');
  });

  it('edits a draft, and refuses to edit a launching campaign until it is paused', async () => {
    const c = await draft();
    const edited = await json(
      call(`/ad-campaigns/${c.id}`, {
        method: 'PATCH',
        json: { daily_budget: { amount_minor: 5000, currency: 'USD' } },
      }),
    );
    expect(edited.daily_budget).toEqual({ amount_minor: 5000, currency: 'USD' });
    await json(call(`/ad-campaigns/${c.id}/launch`, { method: 'POST', json: confirmOf(edited) }), 202);
    const refused = await json(call(`/ad-campaigns/${c.id}`, { method: 'PATCH', json: { name: 'Other' } }), 409);
    expect(refused.code).toBe('ad_campaign_not_paused');
    expect(refused.detail).toContain('pause it first');
  });
});

describe('workspace isolation', () => {
  it('answers 404 for a campaign of another workspace, on every operation, and lists none of them', async () => {
    const c = await draft();
    const other = await t.signup();
    const as = { token: other.token };
    await json(call(`/ad-campaigns/${c.id}`, as), 404);
    await json(call(`/ad-campaigns/${c.id}`, { ...as, method: 'PATCH', json: { name: 'x' } }), 404);
    await json(call(`/ad-campaigns/${c.id}/launch`, { ...as, method: 'POST', json: confirmOf(c) }), 404);
    for (const op of ['pause', 'resume', 'archive'])
      await json(call(`/ad-campaigns/${c.id}/${op}`, { ...as, method: 'POST' }), 404);
    expect((await json(call('/ad-campaigns', as))).data).toEqual([]);
    await json(call('/ad-campaigns', { ...as, method: 'POST', json: campaignBody(connectorId) }), 404);
  });
});
