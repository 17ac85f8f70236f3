// Ad campaigns (migration 0015). Tenant rows: every function takes the workspace id right after the
// queryable, except campaignsToSync (the status sync's sweep, across workspaces) whose results name their
// workspace. State changes are conditional updates (`where status = any(from)`), so two callers racing
// on one campaign cannot both move it.
import type { Ids } from '../../deps.ts';
import { query, type Queryable } from '../../db/queryable.ts';
import type { PageBound } from '../../db/paging.ts';

export type AdCampaignStatus =
  | 'draft'
  | 'launching'
  | 'pending_review'
  | 'active'
  | 'disapproved'
  | 'paused'
  | 'completed'
  | 'archived';

export interface AdTargeting {
  countries: string[];
  age_min: number;
  age_max: number;
  interests?: string[];
}

export interface AdCreative {
  headline: string;
  primary_text: string;
  description?: string;
  link_url: string;
  call_to_action: CallToAction;
}

export type CallToAction =
  | 'LEARN_MORE'
  | 'SIGN_UP'
  | 'SHOP_NOW'
  | 'CONTACT_US'
  | 'BOOK_TRAVEL'
  | 'DOWNLOAD'
  | 'GET_QUOTE'
  | 'SUBSCRIBE';

/** Ids of what the launch created at the platform: page, campaign, ad_set, then creative_N and ad_N per creative (from 1). */
export type PlatformIds = Record<string, string>;

export interface AdCampaignFields {
  name: string;
  objective: string;
  daily_budget_minor: number;
  currency: string;
  start_at: Date;
  end_at: Date | null;
  targeting: AdTargeting;
  creatives: AdCreative[];
}

export interface AdCampaignRow extends AdCampaignFields {
  id: string;
  workspace_id: string;
  connector_id: string;
  status: AdCampaignStatus;
  mode: 'live' | 'sandbox';
  ad_account_id: string | null;
  platform_ids: PlatformIds;
  effective_status: string | null;
  status_reason: string | null;
  /** bigint columns: a string on PostgreSQL, a number on the embedded database; read with Number(). */
  spend_minor: number | string;
  impressions: number | string;
  clicks: number | string;
  synced_at: Date | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  launched_at: Date | null;
}

const columns = (q: Queryable) => query(q)`
  id, workspace_id, connector_id, name, objective, status, mode, daily_budget_minor, currency, start_at, end_at, targeting, creatives,
  ad_account_id, platform_ids, effective_status, status_reason, spend_minor, impressions, clicks, synced_at, created_by, created_at,
  updated_at, launched_at`;

export interface NewAdCampaign extends AdCampaignFields {
  connectorId: string;
  mode: 'live' | 'sandbox';
  adAccountId: string | null;
  createdBy: string | null;
  now: Date;
}

export async function insertAdCampaign(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  f: NewAdCampaign,
): Promise<AdCampaignRow> {
  const sql = query(q);
  const [row] = await sql<AdCampaignRow[]>`
    insert into ad_campaigns (id, workspace_id, connector_id, name, objective, status, mode, daily_budget_minor, currency, start_at, end_at,
                              targeting, creatives, ad_account_id, created_by, created_at, updated_at)
    values (${ids.make('adc')}, ${workspaceId}, ${f.connectorId}, ${f.name}, ${f.objective}, 'draft', ${f.mode}, ${f.daily_budget_minor}, ${f.currency},
            ${f.start_at}, ${f.end_at}, ${sql.json(f.targeting as never)}, ${sql.json(f.creatives as never)}, ${f.adAccountId}, ${f.createdBy}, ${f.now}, ${f.now})
    returning ${columns(q)}`;
  return row;
}

export async function findAdCampaign(
  q: Queryable,
  workspaceId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<AdCampaignRow | undefined> {
  const sql = query(q);
  const [row] = await sql<AdCampaignRow[]>`
    select ${columns(q)} from ad_campaigns where id = ${id} and workspace_id = ${workspaceId} ${options.forUpdate ? sql`for update` : sql``}`;
  return row;
}

export function listAdCampaignRows(
  q: Queryable,
  workspaceId: string,
  page: { limit: number; before?: PageBound; statuses?: AdCampaignStatus[] },
): Promise<AdCampaignRow[]> {
  const sql = query(q);
  const { before } = page;
  return sql<AdCampaignRow[]>`
    select ${columns(q)} from ad_campaigns
    where workspace_id = ${workspaceId}
      ${page.statuses?.length ? sql`and status = any(${sql.array(page.statuses)})` : sql``}
      ${before ? sql`and (created_at, id) < (${before.at}::timestamptz, ${before.id})` : sql``}
    order by created_at desc, id desc
    limit ${page.limit}`;
}

/** Replaces a campaign's fields while its status is one of `from` (a draft by default); a paused one's edit also sets its platform ids. */
export async function updateAdCampaignFields(
  q: Queryable,
  workspaceId: string,
  id: string,
  f: AdCampaignFields,
  now: Date,
  options: { from?: AdCampaignStatus[]; platformIds?: PlatformIds } = {},
): Promise<AdCampaignRow | undefined> {
  const sql = query(q);
  const [row] = await sql<AdCampaignRow[]>`
    update ad_campaigns set name = ${f.name}, objective = ${f.objective}, daily_budget_minor = ${f.daily_budget_minor}, currency = ${f.currency},
      start_at = ${f.start_at}, end_at = ${f.end_at}, targeting = ${sql.json(f.targeting as never)}, creatives = ${sql.json(f.creatives as never)},
      ${options.platformIds ? sql`platform_ids = ${sql.json(options.platformIds)},` : sql``}
      updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId} and status = any(${sql.array(options.from ?? ['draft'])})
    returning ${columns(q)}`;
  return row;
}

export interface AdCampaignChange {
  status?: AdCampaignStatus;
  effectiveStatus?: string | null;
  statusReason?: string | null;
  launchedAt?: Date;
  adAccountId?: string | null;
  delivery?: { spend_minor: number; impressions: number; clicks: number; synced_at: Date };
}

/** Moves a campaign whose status is one of `from`; undefined when it is not (someone else moved it). */
export async function changeAdCampaign(
  q: Queryable,
  workspaceId: string,
  id: string,
  from: AdCampaignStatus[],
  change: AdCampaignChange,
  now: Date,
): Promise<AdCampaignRow | undefined> {
  const sql = query(q);
  const d = change.delivery;
  const [row] = await sql<AdCampaignRow[]>`
    update ad_campaigns set
      ${change.status ? sql`status = ${change.status},` : sql``}
      ${change.effectiveStatus !== undefined ? sql`effective_status = ${change.effectiveStatus},` : sql``}
      ${change.statusReason !== undefined ? sql`status_reason = ${change.statusReason},` : sql``}
      ${change.launchedAt ? sql`launched_at = ${change.launchedAt},` : sql``}
      ${change.adAccountId !== undefined ? sql`ad_account_id = ${change.adAccountId},` : sql``}
      ${d ? sql`spend_minor = ${d.spend_minor}, impressions = ${d.impressions}, clicks = ${d.clicks}, synced_at = ${d.synced_at},` : sql``}
      updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId} and status = any(${sql.array(from)})
    returning ${columns(q)}`;
  return row;
}

/** Records one object the launch created at the platform (in the launch step's transaction). */
export async function recordPlatformId(
  q: Queryable,
  workspaceId: string,
  id: string,
  key: string,
  platformId: string,
): Promise<void> {
  const sql = query(q);
  await sql`
    update ad_campaigns set platform_ids = platform_ids || ${sql.json({ [key]: platformId })}
    where id = ${id} and workspace_id = ${workspaceId}`;
}

/** Campaigns whose platform status the sync job follows, across workspaces (the job then works per workspace). */
export function campaignsToSync(q: Queryable, limit: number): Promise<Array<{ id: string; workspace_id: string }>> {
  return query(q)<Array<{ id: string; workspace_id: string }>>`
    select id, workspace_id from ad_campaigns where status in ('pending_review', 'active', 'paused', 'disapproved') and platform_ids ? 'ad_1'
    order by synced_at nulls first, id limit ${limit}`;
}
