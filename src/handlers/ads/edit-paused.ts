// Editing a campaign that was launched and is paused: what Meta lets change on a running campaign (name,
// daily budget, end, targeting, creatives) is pushed to the platform first and saved only when all of it
// was accepted, so a platform error leaves the record as it was. A new daily budget needs the same
// `confirm` echo as launch_ad_campaign (it spends again on resume); objective, start and currency are
// fixed once launched.
import { updateAdCampaignFields, type AdCampaignRow } from './ad-campaigns-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { campaignFields, patchedInput, type AdCampaignInput } from './campaign-input.ts';
import type { BudgetConfirmation } from './launch-ad-campaign.ts';
import { pushEdit } from './platform-edit.ts';
import { adCampaignEventData } from './wire.ts';

export type AdCampaignPatch = Partial<AdCampaignInput> & { confirm?: BudgetConfirmation };

export async function editPausedCampaign(
  deps: Deps,
  actor: Actor,
  current: AdCampaignRow,
  patch: AdCampaignPatch,
): Promise<AdCampaignRow> {
  const next = campaignFields(patchedInput(current, patch));
  const fixed = [
    next.objective !== current.objective && 'objective',
    next.start_at.getTime() !== current.start_at.getTime() && 'start_at',
    next.currency !== current.currency && 'currency',
    current.end_at && !next.end_at && 'end_at (it cannot be removed)',
  ].filter(Boolean);
  if (fixed.length) {
    throw new ApiError(
      'ad_campaign_state_conflict',
      `Campaign ${current.id} was launched: ${fixed.join(', ')} can no longer change. Archive it and create another to change them.`,
    );
  }
  if (next.daily_budget_minor !== current.daily_budget_minor) {
    const c = patch.confirm;
    if (c?.daily_budget_minor !== next.daily_budget_minor || c.currency !== next.currency) {
      throw new ApiError(
        'budget_confirmation_mismatch',
        `Nothing was changed: a new daily budget spends once the campaign resumes, so confirm must repeat it exactly, {daily_budget_minor: ${next.daily_budget_minor}, currency: "${next.currency}"}, after the human agreed to spend it.`,
        {
          errors: [
            {
              field: 'confirm',
              code: 'budget_confirmation_mismatch',
              message: `expected ${next.daily_budget_minor} ${next.currency}`,
            },
          ],
        },
      );
    }
  }
  const platformIds = await pushEdit(deps, current, next);
  const row = await deps.db.sql.begin(async (tx) => {
    const updated = await updateAdCampaignFields(tx, actor.workspaceId, current.id, next, deps.clock.now(), {
      from: ['paused'],
      platformIds,
    });
    if (!updated)
      throw new ApiError(
        'ad_campaign_state_conflict',
        `Campaign ${current.id} changed while its edit was sent to the platform; get it again.`,
      );
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
  deps.resourceWatch.changed(current.id);
  return row;
}
