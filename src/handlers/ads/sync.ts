// Follows launched campaigns at the platform: the ads' effective status (review, delivery, disapproval
// with its reason, pauses) and the campaign's lifetime insights (spend in minor units, impressions,
// clicks). Run by a cron job every few minutes, and once right after a launch.
import { z } from 'zod';
import {
  campaignsToSync,
  changeAdCampaign,
  findAdCampaign,
  type AdCampaignRow,
  type AdCampaignStatus,
} from './ad-campaigns-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { graphGet } from '../connectors/meta/graph-client.ts';
import { defineJob } from '../../jobs/job-kind.ts';
import { recordEvent } from '../events/record-event.ts';
import { platformSession } from './platform.ts';
import { decimalToMinor, reasonFromAd, statusFromAds } from './status-map.ts';
import { adCampaignEventData } from './wire.ts';

const SYNCED: AdCampaignStatus[] = ['pending_review', 'active', 'disapproved', 'paused'];
const BATCH = 50;

/** Every few minutes: follows the launched campaigns synced longest ago. */
export const syncAdCampaignsJob = defineJob({
  name: 'ads.sync',
  payload: z.object({}).strict(),
  policy: 'singleton',
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  handler: async (_payload, _job, deps: Deps) => {
    await syncDueCampaigns(deps);
  },
});

/** Syncs the campaigns synced longest ago; stops at a rate limit (the next run goes on). */
export async function syncDueCampaigns(deps: Deps): Promise<number> {
  let synced = 0;
  for (const due of await campaignsToSync(deps.db.sql, BATCH)) {
    try {
      await syncAdCampaign(deps, due.workspace_id, due.id);
      synced += 1;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      deps.log.warn({ campaign_id: due.id, code: error.code, err: error.message }, 'ad campaign sync failed');
      if (error.code === 'provider_unavailable') break;
    }
  }
  return synced;
}

export async function syncAdCampaign(
  deps: Deps,
  workspaceId: string,
  campaignId: string,
): Promise<AdCampaignRow | undefined> {
  const campaign = await findAdCampaign(deps.db.sql, workspaceId, campaignId);
  if (!campaign || !SYNCED.includes(campaign.status) || !campaign.platform_ids.ad_1) return campaign;
  const meta = deps.connectors.meta;
  const session = await platformSession(deps, campaign);
  const adIds = Object.keys(campaign.platform_ids)
    .filter((k) => /^ad_\d+$/.test(k))
    .map((k) => campaign.platform_ids[k]);
  const ads = [];
  for (const id of adIds)
    ads.push(
      await session.call((token) =>
        graphGet(meta, token, id, { fields: 'id,status,effective_status,issues_info,ad_review_feedback' }),
      ),
    );
  const insights = await session.call((token) =>
    graphGet(meta, token, `${campaign.platform_ids.campaign}/insights`, {
      fields: 'spend,impressions,clicks',
      date_preset: 'maximum',
    }),
  );
  const effective = ads.map((a) => String(a.effective_status ?? ''));
  const now = deps.clock.now();
  const status = statusFromAds(effective, campaign.end_at, now);
  const disapproved = ads.find((a) => a.effective_status === 'DISAPPROVED' || a.effective_status === 'WITH_ISSUES');
  const row0 = (Array.isArray(insights.data) ? insights.data[0] : undefined) as Record<string, unknown> | undefined;
  const delivery = {
    spend_minor: row0 && typeof row0.spend === 'string' ? decimalToMinor(row0.spend, campaign.currency) : 0,
    impressions: Number(row0?.impressions ?? 0) || 0,
    clicks: Number(row0?.clicks ?? 0) || 0,
    synced_at: now,
  };
  const statusReason = disapproved ? (reasonFromAd(disapproved) ?? 'disapproved without a reason given') : null;
  const row = await deps.db.sql.begin(async (tx) => {
    const changed = await changeAdCampaign(
      tx,
      workspaceId,
      campaignId,
      [campaign.status],
      { status, effectiveStatus: effective.join(',') || null, statusReason, delivery },
      now,
    );
    if (changed && changed.status !== campaign.status)
      await recordEvent(
        deps,
        tx,
        workspaceId,
        { type: 'system', id: null },
        `ad_campaign.${changed.status}`,
        adCampaignEventData(changed),
      );
    return changed;
  });
  if (row && row.status !== campaign.status) deps.resourceWatch.changed(campaignId);
  return row;
}
