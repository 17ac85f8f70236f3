// Ad campaigns as records: create a draft on a meta_ads connector, read, list, and edit a draft or a paused campaign.
import { findAdCampaign, insertAdCampaign, listAdCampaigns as listRows, updateAdCampaignFields, type AdCampaignRow, type AdCampaignStatus } from './ad-campaigns-data.ts';
import { findConnector } from '../connectors/connectors-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { waitForChange, type Watched } from '../operations/wait-for-change.ts';
import { campaignFields, patchedInput, type AdCampaignInput } from './campaign-input.ts';
import { editPausedCampaign, type AdCampaignPatch } from './edit-paused.ts';
import { adCampaignEventData } from './wire.ts';

export async function requireCampaign(q: Queryable, workspaceId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<AdCampaignRow> {
  const row = await findAdCampaign(q, workspaceId, id, options);
  if (!row) throw new ApiError('not_found', `No ad campaign ${id} in this workspace.`);
  return row;
}

export async function createAdCampaign(deps: Deps, actor: Actor, input: AdCampaignInput & { connector_id: string }): Promise<AdCampaignRow> {
  const fields = campaignFields(input);
  const connector = await findConnector(deps.db.sql, actor.workspaceId, input.connector_id);
  if (!connector) throw new ApiError('not_found', `No connector ${input.connector_id} in this workspace.`);
  if (connector.provider !== 'meta_ads') {
    throw new ApiError('validation_failed', `Connector ${connector.id} is a ${connector.provider} connector; ads need one made with start_connector_oauth {provider: "meta_ads"}.`, {
      errors: [{ field: 'connector_id', code: 'wrong_provider', message: 'a meta_ads connector' }],
    });
  }
  return deps.db.sql.begin(async (tx) => {
    const row = await insertAdCampaign(tx, actor.workspaceId, deps.ids, {
      ...fields,
      connectorId: connector.id,
      mode: connector.mode,
      adAccountId: connector.status === 'connected' ? connector.account_email : null,
      createdBy: actor.userId,
      now: deps.clock.now(),
    });
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'ad_campaign.created', adCampaignEventData(row));
    return row;
  });
}

/** Campaigns whose status moves on its own soon: the launch job, or the platform's review. */
const TRANSITIONAL = new Set<AdCampaignStatus>(['launching', 'pending_review']);
const watchedCampaign: Watched<AdCampaignRow> = { fingerprint: (row) => row.status, settled: (row) => !TRANSITIONAL.has(row.status) };

/**
 * With `waitSeconds`, a launching or in-review campaign is answered as soon as its status changes (or the
 * wait ends); any other campaign at once, as get_connector does for consent.
 */
export function getAdCampaign(deps: Deps, actor: Actor, id: string, wait: { waitSeconds?: number; signal?: AbortSignal } = {}): Promise<AdCampaignRow> {
  const read = () => requireCampaign(deps.db.sql, actor.workspaceId, id);
  return waitForChange(deps, actor, { id, waitSeconds: wait.waitSeconds ?? 0, signal: wait.signal }, read, watchedCampaign);
}

export function listAdCampaigns(deps: Deps, actor: Actor, page: { statuses: AdCampaignStatus[]; before?: { at: string; id: string }; limit: number }): Promise<AdCampaignRow[]> {
  return listRows(deps.db.sql, actor.workspaceId, page);
}

const PAUSE_FIRST = new Set(['launching', 'pending_review', 'active', 'disapproved']);

/** A draft is edited here; a paused campaign at the platform too (edit-paused.ts); a delivering one must be paused first. */
export async function updateAdCampaign(deps: Deps, actor: Actor, id: string, patch: AdCampaignPatch): Promise<AdCampaignRow> {
  const seen = await requireCampaign(deps.db.sql, actor.workspaceId, id);
  if (seen.status === 'paused') return editPausedCampaign(deps, actor, seen, patch);
  const row = await deps.db.sql.begin(async (tx) => {
    const current = await requireCampaign(tx, actor.workspaceId, id, { forUpdate: true });
    if (PAUSE_FIRST.has(current.status)) {
      throw new ApiError('ad_campaign_not_paused', `Campaign ${id} is ${current.status} at the platform: pause it first with pause_ad_campaign, then edit it (and resume_ad_campaign).`);
    }
    if (current.status !== 'draft') throw new ApiError('ad_campaign_state_conflict', `Campaign ${id} is ${current.status} and can no longer be edited; create another.`);
    const updated = (await updateAdCampaignFields(tx, actor.workspaceId, id, campaignFields(patchedInput(current, patch)), deps.clock.now())) as AdCampaignRow;
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'ad_campaign.updated', adCampaignEventData(updated));
    return updated;
  });
  deps.resourceWatch.changed(id);
  return row;
}
