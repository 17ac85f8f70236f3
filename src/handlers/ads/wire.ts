// An ad campaign as the contract shows it. Money stays integer minor units; bigint counters come back
// from the database as strings on PostgreSQL and are turned into numbers here.
import type { AdCampaignRow } from './ad-campaigns-data.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const adCampaignBody = (c: AdCampaignRow) => ({
  id: c.id,
  name: c.name,
  status: c.status,
  mode: c.mode,
  connector_id: c.connector_id,
  ad_account_id: c.ad_account_id,
  objective: c.objective,
  daily_budget: { amount_minor: c.daily_budget_minor, currency: c.currency },
  start_at: c.start_at.toISOString(),
  end_at: iso(c.end_at),
  targeting: c.targeting,
  creatives: c.creatives,
  platform_ids: { ...c.platform_ids } as Record<string, string>,
  effective_status: c.effective_status,
  status_reason: c.status_reason,
  delivery: {
    spend_minor: Number(c.spend_minor),
    impressions: Number(c.impressions),
    clicks: Number(c.clicks),
    synced_at: iso(c.synced_at),
    ...(c.mode === 'sandbox' && {
      note: 'Sandbox mode: nothing was created at Meta and no ads are delivered, so delivery stays zero.',
    }),
  },
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
  launched_at: iso(c.launched_at),
});

/** What `ad_campaign.*` events carry. */
export const adCampaignEventData = (c: AdCampaignRow) => ({
  id: c.id,
  name: c.name,
  status: c.status,
  mode: c.mode,
  connector_id: c.connector_id,
  daily_budget: { amount_minor: c.daily_budget_minor, currency: c.currency },
  platform_ids: { ...c.platform_ids },
  effective_status: c.effective_status,
  status_reason: c.status_reason,
});
