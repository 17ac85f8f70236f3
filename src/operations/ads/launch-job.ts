// The launch job: builds the campaign at the platform — campaign, ad set, then a creative and an ad per
// creative — every object created PAUSED, then activates them (ads first, the campaign last, so nothing
// delivers half-built). Each object's id is stored the moment the platform returns it, and a retry
// skips what is stored: a crash or a rate limit mid-launch continues, never creating anything twice.
// (One window remains: a crash after the platform created an object and before its id was stored.)
import { z } from 'zod';
import { changeAdCampaign, findAdCampaign, recordPlatformId, type AdCampaignRow, type AdCreative } from '../../data/ad-campaigns.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { graphGet, graphPost } from '../../connectors/meta/graph-client.ts';
import { defineJob, type JobContext, type JobKind } from '../../jobs/job-kind.ts';
import { recordEvent } from '../events/record-event.ts';
import { platformSession, type PlatformSession } from './platform.ts';
import { syncAdCampaign } from './sync.ts';
import { adCampaignEventData } from './wire.ts';

export interface LaunchPayload {
  workspace_id: string;
  campaign_id: string;
}

const OPTIMIZATION: Record<string, string> = {
  OUTCOME_TRAFFIC: 'LINK_CLICKS',
  OUTCOME_AWARENESS: 'REACH',
  OUTCOME_ENGAGEMENT: 'POST_ENGAGEMENT',
  OUTCOME_LEADS: 'LINK_CLICKS',
  OUTCOME_SALES: 'LINK_CLICKS',
};

export function adLaunchJob(deps: Deps): JobKind<LaunchPayload> {
  return defineJob({
    name: 'ads.launch',
    payload: z.object({ workspace_id: z.string(), campaign_id: z.string() }),
    policy: 'stately',
    singletonKey: (p) => p.campaign_id,
    // Rate limits clear within minutes to an hour: back off well past them.
    retry: { limit: 10, delaySeconds: 60, backoff: true },
    handler: (payload, job) => runLaunch(deps, payload, job),
  });
}

export async function runLaunch(deps: Deps, payload: LaunchPayload, job: Pick<JobContext, 'once'>): Promise<void> {
  const campaign = await findAdCampaign(deps.db.sql, payload.workspace_id, payload.campaign_id);
  if (!campaign || campaign.status !== 'launching') return;
  let session: PlatformSession;
  try {
    session = await platformSession(deps, campaign);
    await buildAtPlatform(deps, campaign, session);
  } catch (error) {
    // Waiting for the human to reconnect is not a failure to retry: resume_ad_campaign continues it.
    if (error instanceof ApiError && error.code === 'connector_not_connected') return;
    throw error;
  }
  await job.once('reviewing', async (tx) => {
    const now = deps.clock.now();
    const row = await changeAdCampaign(tx, campaign.workspace_id, campaign.id, ['launching'], { status: 'pending_review', effectiveStatus: 'PENDING_REVIEW', statusReason: null }, now);
    if (row) await recordEvent(deps, tx, campaign.workspace_id, { type: 'system', id: null }, 'ad_campaign.pending_review', adCampaignEventData(row));
    return row?.id ?? null;
  });
  deps.resourceWatch.changed(campaign.id);
  await syncAdCampaign(deps, campaign.workspace_id, campaign.id).catch((e: unknown) => deps.log.warn({ campaign_id: campaign.id, err: (e as Error).message }, 'first sync after launch failed; the sync job retries'));
}

/** The ad set: the budget (minor units, as Meta takes them), the schedule and the targeting. */
const adSetFields = (c: AdCampaignRow, name: string, campaignId: string) => ({
  name,
  campaign_id: campaignId,
  daily_budget: String(c.daily_budget_minor),
  billing_event: 'IMPRESSIONS',
  optimization_goal: OPTIMIZATION[c.objective] ?? 'LINK_CLICKS',
  bid_strategy: 'LOWEST_COST_WITHOUT_CAP',
  targeting: { geo_locations: { countries: c.targeting.countries }, age_min: c.targeting.age_min, age_max: c.targeting.age_max },
  status: 'PAUSED',
  start_time: c.start_at.toISOString(),
  ...(c.end_at && { end_time: c.end_at.toISOString() }),
});

/** A link ad's creative, posted as the page. */
const creativeFields = (c: AdCreative, name: string, pageId: string) => ({
  name,
  object_story_spec: {
    page_id: pageId,
    link_data: { link: c.link_url, message: c.primary_text, name: c.headline, ...(c.description && { description: c.description }), call_to_action: { type: c.call_to_action, value: { link: c.link_url } } },
  },
});

async function firstPage(deps: Deps, token: string): Promise<{ id: string }> {
  const pages = await graphGet(deps.connectors.meta, token, 'me/accounts', { fields: 'id,name' });
  const first = Array.isArray(pages.data) ? (pages.data[0] as { id?: unknown } | undefined) : undefined;
  if (typeof first?.id !== 'string') throw new ApiError('provider_unavailable', 'The ads account has no Facebook Page to run ads from.');
  return { id: first.id };
}

async function buildAtPlatform(deps: Deps, campaign: AdCampaignRow, session: PlatformSession): Promise<void> {
  const meta = deps.connectors.meta;
  const ids = { ...campaign.platform_ids };
  const account = campaign.ad_account_id ?? session.connector.account_email;
  if (!account) throw new ApiError('connector_not_connected', 'The connector has no ad account.');
  // Creates the object unless a run before this one stored its id; stores the id the moment it exists.
  const create = async (key: string, make: (token: string) => Promise<Record<string, unknown>>): Promise<string> => {
    if (ids[key]) return ids[key];
    const created = await session.call(make);
    if (typeof created.id !== 'string') throw new ApiError('provider_unavailable', `The ads platform created ${key} without an id.`);
    await recordPlatformId(deps.db.sql, campaign.workspace_id, campaign.id, key, created.id);
    ids[key] = created.id;
    return created.id;
  };
  const post = (edge: string, fields: Record<string, unknown>) => (token: string) => graphPost(meta, token, `${account}/${edge}`, fields);
  const page = await create('page', (token) => firstPage(deps, token));
  const tag = `${campaign.name} [${campaign.id}]`;
  const metaCampaign = await create('campaign', post('campaigns', { name: tag, objective: campaign.objective, status: 'PAUSED', special_ad_categories: [] }));
  const adSet = await create('ad_set', post('adsets', adSetFields(campaign, tag, metaCampaign)));
  for (const [i, c] of campaign.creatives.entries()) {
    const creative = await create(`creative_${i + 1}`, post('adcreatives', creativeFields(c, `${tag} #${i + 1}`, page)));
    await create(`ad_${i + 1}`, post('ads', { name: `${tag} #${i + 1}`, adset_id: adSet, creative: { creative_id: creative }, status: 'PAUSED' }));
  }
  // Ads first and the campaign last, so nothing delivers before all of it is live.
  const ads = campaign.creatives.map((_, i) => ids[`ad_${i + 1}`]);
  for (const id of [...ads, adSet, metaCampaign]) await session.call((token) => graphPost(meta, token, id, { status: 'ACTIVE' }));
}
