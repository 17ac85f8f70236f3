// What the campaign operations share: a campaign of the workspace or 404, and a status change recorded
// with its event in one transaction.
import { changeAdCampaign, findAdCampaign, type AdCampaignRow, type AdCampaignStatus } from './ad-campaigns-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { adCampaignEventData } from './wire.ts';

export async function requireCampaign(
  q: Queryable,
  workspaceId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<AdCampaignRow> {
  const row = await findAdCampaign(q, workspaceId, id, options);
  if (!row) throw new ApiError('not_found', `No ad campaign ${id} in this workspace.`);
  return row;
}

/** Moves a campaign whose status is one of `from` to `to`; 409 when someone else moved it first. */
export async function transition(
  deps: Deps,
  actor: Actor,
  c: AdCampaignRow,
  from: AdCampaignStatus[],
  to: AdCampaignStatus,
  event: string,
  statusReason: string | null,
): Promise<AdCampaignRow> {
  const row = await deps.db.sql.begin(async (tx) => {
    const changed = await changeAdCampaign(
      tx,
      actor.workspaceId,
      c.id,
      from,
      { status: to, statusReason },
      deps.clock.now(),
    );
    if (!changed) throw new ApiError('ad_campaign_state_conflict', `Campaign ${c.id} changed meanwhile; get it again.`);
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), event, adCampaignEventData(changed));
    return changed;
  });
  deps.resourceWatch.changed(c.id);
  return row;
}
