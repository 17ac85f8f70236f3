import type { AdCampaignRow } from './ad-campaigns-data.ts';
import type { ArchiveAdCampaignInput, ArchiveAdCampaignOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { requireCampaign, transition } from './campaign-records.ts';
import { NEEDS_RECONNECTION, setPlatformStatus } from './platform.ts';
import { adCampaignBody } from './wire.ts';

const LOCAL_ONLY = 'archived_locally_only';

/**
 * Archives at the platform, then here. When the connector is revoked, disconnected or its token dead, the
 * platform cannot be told: the campaign is archived here all the same (it must not stay live in this
 * service's view), with `note` saying its platform objects were left as they were; archiving it again
 * once the connector is back archives them at the platform too.
 */
export async function archiveAdCampaign(
  deps: Deps,
  actor: Actor,
  id: string,
): Promise<{ row: AdCampaignRow; note?: string }> {
  const c = await requireCampaign(deps.db.sql, actor.workspaceId, id);
  if (c.status === 'archived' && c.status_reason !== LOCAL_ONLY) return { row: c };
  if (c.status === 'launching' && c.status_reason !== NEEDS_RECONNECTION)
    throw new ApiError(
      'ad_campaign_state_conflict',
      `Campaign ${id} is being launched; archive it once get_ad_campaign shows pending_review.`,
    );
  let note: string | undefined;
  if (c.platform_ids.campaign) {
    try {
      await setPlatformStatus(deps, c, 'ARCHIVED');
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'connector_not_connected')) throw error;
      note = `Archived here only: the ads connector is not connected (${error.message.split('.')[0]}), so Meta campaign ${c.platform_ids.campaign} (with its ad set and ads) could not be archived at Meta. Archive it in Ads Manager, or reconnect the connector and archive again; while it is active there it keeps spending.`;
    }
  }
  if (c.status === 'archived' && note) return { row: await requireCampaign(deps.db.sql, actor.workspaceId, id), note };
  return {
    row: await transition(deps, actor, c, [c.status], 'archived', 'ad_campaign.archived', note ? LOCAL_ONLY : null),
    note,
  };
}

export async function handle(input: ArchiveAdCampaignInput, ctx: HandlerContext): Promise<ArchiveAdCampaignOutput> {
  const { row, note } = await archiveAdCampaign(ctx.deps, actorFrom(ctx), input.path.campaign_id);
  return { status: 200, body: { ...adCampaignBody(row), ...(note && { note }) } };
}
