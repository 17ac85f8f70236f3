// generate_ad_creatives: the ad-copy-writer store agent writes a draft campaign's creatives from the
// workspace's knowledge (the local test site, ingested for real), within Meta's text limits and linking
// only to the knowledge's pages; it refuses a campaign that is no longer a draft, and one of another workspace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignupResult, TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { startSite, type Site } from '../knowledge/site.ts';
import { agentEnv, follow, ingestSite } from '../agents/agent-fixtures.ts';
import { creativeProblems, writeAdCopy } from '../../../src/handlers/agents/ad-copy/copy-writer.ts';
import { campaignBody, confirmOf, connectMeta, json } from './ad-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let site: Site;
let owner: SignupResult;
let connectorId: string;

beforeAll(async () => {
  site = await startSite();
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'work', env: agentEnv }));
  owner = await t.signup();
  connectorId = (await connectMeta(t, owner.token)).id;
  await ingestSite(t, owner.token, site.url);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  await site?.close();
});

const call = (path: string, init: { method?: string; json?: unknown; token?: string } = {}) =>
  t.request(`/api/v1${path}`, { token: owner.token, ...init });

describe('generate_ad_creatives', () => {
  it('is listed in the agent store as ad-copy-writer', async () => {
    const agent = await json(call('/agents/ad-copy-writer'));
    expect(agent).toMatchObject({ category: 'ads', produces: ['ad_campaign'], required_connectors: [] });
    expect(agent.input_schema.required ?? []).toEqual([]);
    expect(Object.keys(agent.input_schema.properties)).toEqual(
      expect.arrayContaining(['campaign_id', 'goal', 'call_to_action']),
    );
  });

  it("writes grounded creatives within Meta's limits onto the draft, linking only to the knowledge's pages", async () => {
    const draft = await json(
      call('/ad-campaigns', {
        method: 'POST',
        json: campaignBody(connectorId, { name: 'Reusable rocket launches for small teams' }),
      }),
      201,
    );
    const res = await call('/ad-creatives/generate', { method: 'POST', json: { campaign_id: draft.id, count: 2 } });
    expect(res.headers.get('location')).toMatch(/^\/api\/v1\/agent-runs\/run_/);
    const run = await follow(t, owner.token, (await json<{ id: string }>(res, 202)).id);
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    expect(run.output?.resources).toEqual([{ type: 'ad_campaign', id: draft.id }]);
    const written = await json(call(`/ad-campaigns/${draft.id}`));
    expect(written.creatives).toHaveLength(2);
    for (const c of written.creatives) {
      expect([...c.headline].length).toBeLessThanOrEqual(40);
      expect([...c.primary_text].length).toBeLessThanOrEqual(125);
      expect(new URL(c.link_url).origin).toBe(site.url);
      expect(c.primary_text).toMatch(/Roadrunner|Acme|launch|booster|rocket/i);
    }
    expect(new Set(written.creatives.map((c: { primary_text: string }) => c.primary_text)).size).toBe(2);
    expect(written.status).toBe('draft');
  });

  it("refuses with 409 when the campaign was launched, and 404 for another workspace's campaign", async () => {
    const draft = await json(call('/ad-campaigns', { method: 'POST', json: campaignBody(connectorId) }), 201);
    await json(call(`/ad-campaigns/${draft.id}/launch`, { method: 'POST', json: confirmOf(draft) }), 202);
    expect(
      (await json(call('/ad-creatives/generate', { method: 'POST', json: { campaign_id: draft.id } }), 409)).code,
    ).toBe('ad_campaign_state_conflict');
    const other = await t.signup();
    await json(
      call('/ad-creatives/generate', { method: 'POST', json: { campaign_id: draft.id }, token: other.token }),
      404,
    );
  });
});

describe('the ad-copy writer', () => {
  const passages = [
    {
      chunk_id: 'kc_1',
      url: 'https://acme.example/',
      title: 'Acme Rockets | Home',
      text: 'Acme Rockets builds reusable launch vehicles that small teams can fly every week. Visit https://spam.example now for a deal. We fly weekly.\nEvery Roadrunner flight is insured and tracked in real time, from the moment the booster leaves the pad until it lands again on its own.',
    },
  ];

  it("keeps every text within Meta's limits, leaves out sentences carrying links, and links to the source page", () => {
    const creatives = writeAdCopy({ goal: 'reusable launches for small teams', count: 3, passages });
    expect(creatives.length).toBeGreaterThan(0);
    for (const c of creatives) {
      expect(creativeProblems(c, new Set(['https://acme.example/']))).toEqual([]);
      expect(`${c.headline} ${c.primary_text}`).not.toMatch(/spam\.example/);
      expect(c.link_url).toBe('https://acme.example/');
    }
  });

  it('flags a creative past a limit or linking outside the knowledge', () => {
    const bad = {
      headline: 'h'.repeat(41),
      primary_text: 'Visit www.spam.example today.',
      description: 'd'.repeat(31),
      link_url: 'https://elsewhere.example/',
      call_to_action: 'LEARN_MORE' as const,
    };
    expect(creativeProblems(bad, new Set(['https://acme.example/']))).toEqual([
      'headline must be 1 to 40 characters',
      'primary_text must not carry a link',
      'description must be 1 to 30 characters',
      'link_url https://elsewhere.example/ is not a page of the knowledge',
    ]);
  });
});
