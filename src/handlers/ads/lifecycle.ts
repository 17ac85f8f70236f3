// Pause, resume and archive: the platform is told first (a campaign must not deliver while this
// service says it is paused), then the status changes here. Repeating a change that already happened
// is a no-op. Resuming a launch that stopped for a reconnection continues the launch job.
import { changeAdCampaign, type AdCampaignRow, type AdCampaignStatus } from './ad-campaigns-data.ts';
import type { Deps } from '../../deps.ts';
import { launchAdCampaignJob } from './launch-job.ts';
import { ApiError } from '../../errors.ts';
import { graphPost } from '../connectors/meta/graph-client.ts';
import type { Actor } from '../actor.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { requireCampaign } from './campaigns-logic.ts';
import { NEEDS_RECONNECTION, platformSession } from './platform.ts';
import { syncAdCampaign } from './sync.ts';
import { adCampaignEventData } from './wire.ts';

async function transition(deps: Deps, actor: Actor, c: AdCampaignRow, from: AdCampaignStatus[], to: AdCampaignStatus, event: string, statusReason: string | null): Promise<AdCampaignRow> {
  const row = await deps.db.sql.begin(async (tx) => {
    const changed = await changeAdCampaign(tx, actor.workspaceId, c.id, from, { status: to, statusReason }, deps.clock.now());
    if (!changed) throw new ApiError('ad_campaign_state_conflict', `Campaign ${c.id} changed meanwhile; get it again.`);
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), event, adCampaignEventData(changed));
    return changed;
  });
  deps.resourceWatch.changed(c.id);
  return row;
}

async function setPlatformStatus(deps: Deps, c: AdCampaignRow, status: 'ACTIVE' | 'PAUSED' | 'ARCHIVED'): Promise<void> {
  const session = await platformSession(deps, c);
  await session.call((token) => graphPost(deps.connectors.meta, token, c.platform_ids.campaign, { status }));
}

export async function pauseAdCampaign(deps: Deps, actor: Actor, id: string): Promise<AdCampaignRow> {
  const c = await requireCampaign(deps.db.sql, actor.workspaceId, id);
  if (c.status === 'paused') return c;
  const from: AdCampaignStatus[] = ['pending_review', 'active', 'disapproved'];
  if (!from.includes(c.status)) throw new ApiError('ad_campaign_state_conflict', `Only a launched campaign can be paused; campaign ${id} is ${c.status}${c.status === 'launching' ? ' (wait until get_ad_campaign shows pending_review)' : ''}.`);
  await setPlatformStatus(deps, c, 'PAUSED');
  return transition(deps, actor, c, from, 'paused', 'ad_campaign.paused', 'paused_by_user');
}

export async function resumeAdCampaign(deps: Deps, actor: Actor, id: string): Promise<AdCampaignRow> {
  const c = await requireCampaign(deps.db.sql, actor.workspaceId, id);
  if (c.status === 'launching' && c.status_reason === NEEDS_RECONNECTION) return continueLaunch(deps, actor, c);
  if (c.status === 'active' || c.status === 'pending_review' || c.status === 'launching') return c;
  if (c.status !== 'paused') throw new ApiError('ad_campaign_state_conflict', `Only a paused campaign can be resumed; campaign ${id} is ${c.status}${c.status === 'draft' ? ' (launch it)' : ''}.`);
  await setPlatformStatus(deps, c, 'ACTIVE');
  const resumed = await transition(deps, actor, c, ['paused'], 'active', 'ad_campaign.resumed', null);
  return (await syncAdCampaign(deps, actor.workspaceId, id).catch(() => undefined)) ?? resumed;
}

/** The launch stopped for a reconnection: once the connector is connected again, the job goes on. */
async function continueLaunch(deps: Deps, actor: Actor, c: AdCampaignRow): Promise<AdCampaignRow> {
  await platformSession(deps, c);
  const row = await deps.db.sql.begin(async (tx) => {
    const changed = (await changeAdCampaign(tx, actor.workspaceId, c.id, ['launching'], { statusReason: null }, deps.clock.now())) as AdCampaignRow;
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'ad_campaign.resumed', adCampaignEventData(changed));
    await deps.jobs.enqueue(launchAdCampaignJob, { workspace_id: actor.workspaceId, campaign_id: c.id }, { tx });
    return changed;
  });
  deps.jobs.wake(launchAdCampaignJob);
  deps.resourceWatch.changed(c.id);
  return row;
}

const LOCAL_ONLY = 'archived_locally_only';

/**
 * Archives at the platform, then here. When the connector is revoked, disconnected or its token dead, the
 * platform cannot be told: the campaign is archived here all the same (it must not stay live in this
 * service's view), with `note` saying its platform objects were left as they were; archiving it again
 * once the connector is back archives them at the platform too.
 */
export async function archiveAdCampaign(deps: Deps, actor: Actor, id: string): Promise<{ row: AdCampaignRow; note?: string }> {
  const c = await requireCampaign(deps.db.sql, actor.workspaceId, id);
  if (c.status === 'archived' && c.status_reason !== LOCAL_ONLY) return { row: c };
  if (c.status === 'launching' && c.status_reason !== NEEDS_RECONNECTION) throw new ApiError('ad_campaign_state_conflict', `Campaign ${id} is being launched; archive it once get_ad_campaign shows pending_review.`);
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
  return { row: await transition(deps, actor, c, [c.status], 'archived', 'ad_campaign.archived', note ? LOCAL_ONLY : null), note };
}
