// Ad campaigns as records: create a draft on a meta_ads connector, read, list, and edit a draft.
import { findAdCampaign, insertAdCampaign, listAdCampaigns as listRows, updateAdCampaignFields, type AdCampaignRow, type AdCampaignStatus } from '../../data/ad-campaigns.ts';
import { findConnector } from '../../data/connectors.ts';
import type { Queryable } from '../../data/queryable.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { campaignFields, patchedInput, type AdCampaignInput } from './campaign-input.ts';
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

export const getAdCampaign = (deps: Deps, actor: Actor, id: string) => requireCampaign(deps.db.sql, actor.workspaceId, id);

export function listAdCampaigns(deps: Deps, actor: Actor, page: { statuses: AdCampaignStatus[]; before?: { at: string; id: string }; limit: number }): Promise<AdCampaignRow[]> {
  return listRows(deps.db.sql, actor.workspaceId, page);
}

export async function updateAdCampaign(deps: Deps, actor: Actor, id: string, patch: Partial<AdCampaignInput>): Promise<AdCampaignRow> {
  const row = await deps.db.sql.begin(async (tx) => {
    const current = await requireCampaign(tx, actor.workspaceId, id, { forUpdate: true });
    if (current.status !== 'draft') {
      throw new ApiError('ad_campaign_state_conflict', `Only a draft can be edited; campaign ${id} is ${current.status}. Pause it to stop delivery; to change a launched campaign, archive it and create another.`);
    }
    const updated = (await updateAdCampaignFields(tx, actor.workspaceId, id, campaignFields(patchedInput(current, patch)), deps.clock.now())) as AdCampaignRow;
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'ad_campaign.updated', adCampaignEventData(updated));
    return updated;
  });
  deps.resourceWatch.changed(id);
  return row;
}
