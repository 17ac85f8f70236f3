// Sandbox mode: the sandbox ads platform resolves interests against its built-in list and records them on
// the ad set, takes a paused campaign's edits as Meta would (recording them), and refuses an unknown interest.
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
  connectorId = (await connectMeta(t, owner.token)).id;
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const call = (path: string, init: { method?: string; json?: unknown } = {}) =>
  t.request(`/api/v1${path}`, { token: owner.token, ...init });
const objectById = async (id: string) =>
  (await listSandboxAdObjects(t.deps.db.sql, owner.workspaceId)).find((o) => o.id === id);

describe('sandbox interests and edits', () => {
  it("records interests resolved from the built-in list, and pushes a paused campaign's edits to the recorded objects", async () => {
    const draft = await json(call('/ad-campaigns', { method: 'POST', json: campaignBody(connectorId) }), 201);
    await json(call(`/ad-campaigns/${draft.id}/launch`, { method: 'POST', json: confirmOf(draft) }), 202);
    await runLaunchJob(t, owner.workspaceId, draft.id);
    const c = await json(call(`/ad-campaigns/${draft.id}`));
    expect((await objectById(c.platform_ids.ad_set))?.fields.targeting).toMatchObject({
      flexible_spec: [{ interests: [{ id: '6003020834693', name: 'Marketing automation' }] }],
    });
    await json(call(`/ad-campaigns/${c.id}/pause`, { method: 'POST' }));
    const patch = {
      name: 'Renamed in sandbox',
      daily_budget: { amount_minor: 1800, currency: 'USD' },
      confirm: { daily_budget_minor: 1800, currency: 'USD' },
      targeting: { countries: ['US'], age_min: 18, age_max: 40, interests: ['Email marketing'] },
    };
    const updated = await json(call(`/ad-campaigns/${c.id}`, { method: 'PATCH', json: patch }));
    expect(updated).toMatchObject({
      status: 'paused',
      mode: 'sandbox',
      name: patch.name,
      daily_budget: patch.daily_budget,
    });
    expect((await objectById(c.platform_ids.campaign))?.fields.name).toBe(`Renamed in sandbox [${c.id}]`);
    expect((await objectById(c.platform_ids.ad_set))?.fields).toMatchObject({
      daily_budget: '1800',
      targeting: { age_max: 40, flexible_spec: [{ interests: [{ id: '6003076016339', name: 'Email marketing' }] }] },
    });
  });

  it('refuses a launch whose interest the sandbox platform does not know, naming it', async () => {
    const draft = await json(
      call('/ad-campaigns', {
        method: 'POST',
        json: campaignBody(connectorId, {
          targeting: { countries: ['US'], age_min: 18, age_max: 65, interests: ['Competitive yodelling'] },
        }),
      }),
      201,
    );
    const refused = await json(
      call(`/ad-campaigns/${draft.id}/launch`, { method: 'POST', json: confirmOf(draft) }),
      400,
    );
    expect(refused.detail).toContain('"Competitive yodelling"');
    expect((await json(call(`/ad-campaigns/${draft.id}`))).status).toBe('draft');
  });
});
