import { updateAdCampaignFields, type AdCampaignRow } from './ad-campaigns-data.ts';
import type { UpdateAdCampaignInput, UpdateAdCampaignOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { requireCampaign } from './campaign-records.ts';
import { campaignFields, patchedInput } from './campaign-input.ts';
import { editPausedCampaign, type AdCampaignPatch } from './edit-paused.ts';
import { adCampaignBody, adCampaignEventData } from './wire.ts';

const PAUSE_FIRST = new Set(['launching', 'pending_review', 'active', 'disapproved']);

/** A draft is edited here; a paused campaign at the platform too (edit-paused.ts); a delivering one must be paused first. */
export async function updateAdCampaign(
  deps: Deps,
  actor: Actor,
  id: string,
  patch: AdCampaignPatch,
): Promise<AdCampaignRow> {
  const seen = await requireCampaign(deps.db.sql, actor.workspaceId, id);
  if (seen.status === 'paused') return editPausedCampaign(deps, actor, seen, patch);
  const row = await deps.db.sql.begin(async (tx) => {
    const current = await requireCampaign(tx, actor.workspaceId, id, { forUpdate: true });
    if (PAUSE_FIRST.has(current.status)) {
      throw new ApiError(
        'ad_campaign_not_paused',
        `Campaign ${id} is ${current.status} at the platform: pause it first with pause_ad_campaign, then edit it (and resume_ad_campaign).`,
      );
    }
    if (current.status !== 'draft')
      throw new ApiError(
        'ad_campaign_state_conflict',
        `Campaign ${id} is ${current.status} and can no longer be edited; create another.`,
      );
    const updated = await updateAdCampaignFields(
      tx,
      actor.workspaceId,
      id,
      campaignFields(patchedInput(current, patch)),
      deps.clock.now(),
    );
    if (!updated) throw new ApiError('ad_campaign_state_conflict', `Campaign ${id} changed meanwhile; get it again.`);
    await recordEvent(
      deps,
      tx,
      actor.workspaceId,
      eventActor(actor),
      'ad_campaign.updated',
      adCampaignEventData(updated),
    );
    return updated;
  });
  deps.resourceWatch.changed(id);
  return row;
}

export async function handle(input: UpdateAdCampaignInput, ctx: HandlerContext): Promise<UpdateAdCampaignOutput> {
  return {
    status: 200,
    body: adCampaignBody(await updateAdCampaign(ctx.deps, actorFrom(ctx), input.path.campaign_id, input.body)),
  };
}
