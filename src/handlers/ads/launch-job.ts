// The launch job: builds the campaign at the platform — campaign, ad set, then a creative and an ad per
// creative — every object created PAUSED, then activates them (ads first, the campaign last, so nothing
// delivers half-built). Each object's id is stored the moment the platform returns it, and a retry
// skips what is stored: a crash or a rate limit mid-launch continues, never creating anything twice. A
// crash after the platform created an object and before its id was stored is covered too: each object's
// name carries our campaign id, and a retry looks it up by name before creating it.
import { z } from 'zod';
import { changeAdCampaign, findAdCampaign, recordPlatformId, type AdCampaignRow } from './ad-campaigns-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { graphGet, graphPost } from '../connectors/meta/graph-client.ts';
import { defineJob, type JobContext } from '../../jobs/job-kind.ts';
import { recordEvent } from '../events/record-event.ts';
import { adSetFields, creativeFields, findByName, platformTag, resolveInterests } from './platform-fields.ts';
import { platformSession, type PlatformSession } from './platform.ts';
import { syncAdCampaign } from './sync.ts';
import { adCampaignEventData } from './wire.ts';

export interface LaunchPayload {
  workspace_id: string;
  campaign_id: string;
}

/** Builds a campaign at the ads platform (launch_ad_campaign, resume_ad_campaign). */
export const launchAdCampaignJob = defineJob({
  name: 'ads.launch',
  payload: z.object({ workspace_id: z.string(), campaign_id: z.string() }),
  policy: 'stately',
  singletonKey: (p) => p.campaign_id,
  // Rate limits clear within minutes to an hour: back off well past them.
  retry: { limit: 10, delaySeconds: 60, backoff: true },
  handler: (payload: LaunchPayload, job, deps: Deps) => runLaunch(deps, payload, job),
});

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
    // An interest the platform stopped knowing since launch_ad_campaign checked it: nothing was created
    // (interests are resolved first), so the campaign goes back to draft saying which one.
    if (error instanceof ApiError && error.code === 'validation_failed')
      return backToDraft(deps, campaign, error.message);
    throw error;
  }
  await job.once('reviewing', async (tx) => {
    const now = deps.clock.now();
    const row = await changeAdCampaign(
      tx,
      campaign.workspace_id,
      campaign.id,
      ['launching'],
      { status: 'pending_review', effectiveStatus: 'PENDING_REVIEW', statusReason: null },
      now,
    );
    if (row)
      await recordEvent(
        deps,
        tx,
        campaign.workspace_id,
        { type: 'system', id: null },
        'ad_campaign.pending_review',
        adCampaignEventData(row),
      );
    return row?.id ?? null;
  });
  deps.resourceWatch.changed(campaign.id);
  await syncAdCampaign(deps, campaign.workspace_id, campaign.id).catch((e: unknown) =>
    deps.log.warn(
      { campaign_id: campaign.id, err: (e as Error).message },
      'first sync after launch failed; the sync job retries',
    ),
  );
}

async function firstPage(deps: Deps, token: string): Promise<{ id: string }> {
  const pages = await graphGet(deps.connectors.meta, token, 'me/accounts', { fields: 'id,name' });
  const first = Array.isArray(pages.data) ? (pages.data[0] as { id?: unknown } | undefined) : undefined;
  if (typeof first?.id !== 'string')
    throw new ApiError('provider_unavailable', 'The ads account has no Facebook Page to run ads from.');
  return { id: first.id };
}

async function buildAtPlatform(deps: Deps, campaign: AdCampaignRow, session: PlatformSession): Promise<void> {
  const ids = { ...campaign.platform_ids };
  const account = campaign.ad_account_id ?? session.connector.account_email;
  if (!account) throw new ApiError('connector_not_connected', 'The connector has no ad account.');
  // Unless a run before this one stored its id: finds the object a crashed run created (by its name,
  // which carries our campaign id), else creates it; stores the id the moment it is known.
  const create = async (
    key: string,
    edge: string,
    fields: Record<string, unknown> & { name: string },
  ): Promise<string> => {
    if (ids[key]) return ids[key];
    let id = await findByName(deps, session, account, edge, fields.name);
    if (!id) {
      const created = await session.call((token) =>
        graphPost(deps.connectors.meta, token, `${account}/${edge}`, fields),
      );
      if (typeof created.id !== 'string')
        throw new ApiError('provider_unavailable', `The ads platform created ${key} without an id.`);
      id = created.id;
    }
    await recordPlatformId(deps.db.sql, campaign.workspace_id, campaign.id, key, id);
    ids[key] = id;
    return id;
  };
  const interests = ids.ad_set ? [] : await resolveInterests(deps, session, campaign.targeting.interests);
  const page = ids.page ?? (await session.call((token) => firstPage(deps, token))).id;
  if (!ids.page) await recordPlatformId(deps.db.sql, campaign.workspace_id, campaign.id, 'page', (ids.page = page));
  const tag = platformTag(campaign);
  const metaCampaign = await create('campaign', 'campaigns', {
    name: tag,
    objective: campaign.objective,
    status: 'PAUSED',
    special_ad_categories: [],
  });
  const adSet = await create('ad_set', 'adsets', adSetFields(campaign, metaCampaign, interests));
  for (const [i, c] of campaign.creatives.entries()) {
    const creative = await create(`creative_${i + 1}`, 'adcreatives', creativeFields(c, `${tag} #${i + 1}`, page));
    await create(`ad_${i + 1}`, 'ads', {
      name: `${tag} #${i + 1}`,
      adset_id: adSet,
      creative: { creative_id: creative },
      status: 'PAUSED',
    });
  }
  // Ads first and the campaign last, so nothing delivers before all of it is live.
  const ads = campaign.creatives.map((_, i) => ids[`ad_${i + 1}`]);
  for (const id of [...ads, adSet, metaCampaign])
    await session.call((token) => graphPost(deps.connectors.meta, token, id, { status: 'ACTIVE' }));
}

async function backToDraft(deps: Deps, campaign: AdCampaignRow, reason: string): Promise<void> {
  const row = await deps.db.sql.begin(async (tx) => {
    const changed = await changeAdCampaign(
      tx,
      campaign.workspace_id,
      campaign.id,
      ['launching'],
      { status: 'draft', statusReason: reason.slice(0, 1000) },
      deps.clock.now(),
    );
    if (changed)
      await recordEvent(
        deps,
        tx,
        campaign.workspace_id,
        { type: 'system', id: null },
        'ad_campaign.updated',
        adCampaignEventData(changed),
      );
    return changed;
  });
  if (row) deps.resourceWatch.changed(campaign.id);
}
