// Pauses a launched campaign: the platform is told first (a campaign must not deliver while this service
// says it is paused), then the status changes here. Pausing a paused campaign is a no-op.
import type { AdCampaignRow, AdCampaignStatus } from './ad-campaigns-data.ts';
import type { PauseAdCampaignInput, PauseAdCampaignOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { requireCampaign, transition } from './campaign-records.ts';
import { setPlatformStatus } from './platform.ts';
import { adCampaignBody } from './wire.ts';

export async function pauseAdCampaign(deps: Deps, actor: Actor, id: string): Promise<AdCampaignRow> {
  const c = await requireCampaign(deps.db.sql, actor.workspaceId, id);
  if (c.status === 'paused') return c;
  const from: AdCampaignStatus[] = ['pending_review', 'active', 'disapproved'];
  if (!from.includes(c.status))
    throw new ApiError(
      'ad_campaign_state_conflict',
      `Only a launched campaign can be paused; campaign ${id} is ${c.status}${c.status === 'launching' ? ' (wait until get_ad_campaign shows pending_review)' : ''}.`,
    );
  await setPlatformStatus(deps, c, 'PAUSED');
  return transition(deps, actor, c, from, 'paused', 'ad_campaign.paused', 'paused_by_user');
}

export async function handle(input: PauseAdCampaignInput, ctx: HandlerContext): Promise<PauseAdCampaignOutput> {
  return { status: 200, body: adCampaignBody(await pauseAdCampaign(ctx.deps, actorFrom(ctx), input.path.campaign_id)) };
}
