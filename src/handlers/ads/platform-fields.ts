// What the platform is sent for a campaign: the names that tag each object with our campaign id (so a
// launch interrupted before it stored an id finds the object by name instead of creating it again), the ad
// set's budget, schedule and targeting, and a link ad's creative. Interests are names here and ids at
// Meta: they are resolved through the targeting search (GET search?type=adinterest), and a name the
// platform does not know is refused before anything is created or changed.
import type { AdCampaignRow, AdCreative, AdTargeting } from './ad-campaigns-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { graphGet } from '../connectors/meta/graph-client.ts';
import type { PlatformSession } from './platform.ts';

const OPTIMIZATION: Record<string, string> = {
  OUTCOME_TRAFFIC: 'LINK_CLICKS',
  OUTCOME_AWARENESS: 'REACH',
  OUTCOME_ENGAGEMENT: 'POST_ENGAGEMENT',
  OUTCOME_LEADS: 'LINK_CLICKS',
  OUTCOME_SALES: 'LINK_CLICKS',
};

/** The campaign's and ad set's name at the platform; creatives and ads add ` #N`. */
export const platformTag = (c: Pick<AdCampaignRow, 'id' | 'name'>) => `${c.name} [${c.id}]`;

export interface PlatformInterest {
  id: string;
  name: string;
}

/** Each interest name as the platform's interest (same name, any case), or a 400 naming those it does not know. */
export async function resolveInterests(
  deps: Deps,
  session: PlatformSession,
  names: string[] = [],
): Promise<PlatformInterest[]> {
  const found: PlatformInterest[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const body = await session.call((token) =>
      graphGet(deps.connectors.meta, token, 'search', { type: 'adinterest', q: name, limit: '25' }),
    );
    const hits = (Array.isArray(body.data) ? body.data : []) as Array<{ id?: unknown; name?: unknown }>;
    const hit = hits.find(
      (h) =>
        typeof h.id === 'string' && typeof h.name === 'string' && h.name.toLowerCase() === name.trim().toLowerCase(),
    );
    if (hit) found.push({ id: hit.id as string, name: hit.name as string });
    else unknown.push(name);
  }
  if (unknown.length) {
    const list = unknown.map((n) => `"${n}"`).join(', ');
    throw new ApiError(
      'validation_failed',
      `Meta does not know the interest${unknown.length > 1 ? 's' : ''} ${list}; nothing was sent to the platform. Use Meta's own interest names (as in Ads Manager's detailed targeting) or remove them with update_ad_campaign.`,
      {
        errors: unknown.map((n) => ({ field: 'targeting.interests', code: 'unknown_interest', message: n })),
      },
    );
  }
  return found;
}

/** Meta's targeting spec: countries, ages, and the interests (by id) as one flexible_spec group. */
export const targetingSpec = (t: AdTargeting, interests: PlatformInterest[]) => ({
  geo_locations: { countries: t.countries },
  age_min: t.age_min,
  age_max: t.age_max,
  ...(interests.length && { flexible_spec: [{ interests }] }),
});

/** The ad set: the budget (minor units, as Meta takes them), the schedule and the targeting. */
export const adSetFields = (c: AdCampaignRow, campaignId: string, interests: PlatformInterest[]) => ({
  name: platformTag(c),
  campaign_id: campaignId,
  daily_budget: String(c.daily_budget_minor),
  billing_event: 'IMPRESSIONS',
  optimization_goal: OPTIMIZATION[c.objective] ?? 'LINK_CLICKS',
  bid_strategy: 'LOWEST_COST_WITHOUT_CAP',
  targeting: targetingSpec(c.targeting, interests),
  status: 'PAUSED',
  start_time: c.start_at.toISOString(),
  ...(c.end_at && { end_time: c.end_at.toISOString() }),
});

/** A link ad's creative, posted as the page. */
export const creativeFields = (c: AdCreative, name: string, pageId: string) => ({
  name,
  object_story_spec: {
    page_id: pageId,
    link_data: {
      link: c.link_url,
      message: c.primary_text,
      name: c.headline,
      ...(c.description && { description: c.description }),
      call_to_action: { type: c.call_to_action, value: { link: c.link_url } },
    },
  },
});

/** The object of `edge` named exactly `name` in the ad account, if a launch before this one created it. */
export async function findByName(
  deps: Deps,
  session: PlatformSession,
  account: string,
  edge: string,
  name: string,
): Promise<string | undefined> {
  const filtering = JSON.stringify([{ field: 'name', operator: 'EQUAL', value: name }]);
  const body = await session.call((token) =>
    graphGet(deps.connectors.meta, token, `${account}/${edge}`, { fields: 'id,name', filtering, limit: '2' }),
  );
  const hit = (Array.isArray(body.data) ? body.data : []).find(
    (o: { id?: unknown; name?: unknown }) => o.name === name && typeof o.id === 'string',
  ) as { id: string } | undefined;
  return hit?.id;
}
