// Resumes a paused campaign: the platform is told first, then the status changes here. Resuming a
// campaign that is already delivering (or in review) is a no-op. Resuming a launch that stopped for a
// reconnection continues the launch job.
import { changeAdCampaign, type AdCampaignRow } from './ad-campaigns-data.ts';
import type { ResumeAdCampaignInput, ResumeAdCampaignOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { requireCampaign, transition } from './campaign-records.ts';
import { NEEDS_RECONNECTION, platformSession, setPlatformStatus } from './platform.ts';
import { syncAdCampaign } from './sync.ts';
import { adCampaignBody, adCampaignEventData } from './wire.ts';
import { launchAdCampaignJob } from './launch-job.ts';

export async function resumeAdCampaign(deps: Deps, actor: Actor, id: string): Promise<AdCampaignRow> {
  const c = await requireCampaign(deps.db.sql, actor.workspaceId, id);
  if (c.status === 'launching' && c.status_reason === NEEDS_RECONNECTION) return continueLaunch(deps, actor, c);
  if (c.status === 'active' || c.status === 'pending_review' || c.status === 'launching') return c;
  if (c.status !== 'paused')
    throw new ApiError(
      'ad_campaign_state_conflict',
      `Only a paused campaign can be resumed; campaign ${id} is ${c.status}${c.status === 'draft' ? ' (launch it)' : ''}.`,
    );
  await setPlatformStatus(deps, c, 'ACTIVE');
  const resumed = await transition(deps, actor, c, ['paused'], 'active', 'ad_campaign.resumed', null);
  return (await syncAdCampaign(deps, actor.workspaceId, id).catch(() => undefined)) ?? resumed;
}

/** The launch stopped for a reconnection: once the connector is connected again, the job goes on. */
async function continueLaunch(deps: Deps, actor: Actor, c: AdCampaignRow): Promise<AdCampaignRow> {
  await platformSession(deps, c);
  const row = await deps.db.sql.begin(async (tx) => {
    const changed = await changeAdCampaign(
      tx,
      actor.workspaceId,
      c.id,
      ['launching'],
      { statusReason: null },
      deps.clock.now(),
    );
    if (!changed) throw new ApiError('ad_campaign_state_conflict', `Campaign ${c.id} changed meanwhile; get it again.`);
    await recordEvent(
      deps,
      tx,
      actor.workspaceId,
      eventActor(actor),
      'ad_campaign.resumed',
      adCampaignEventData(changed),
    );
    await deps.jobs.enqueue(launchAdCampaignJob, { workspace_id: actor.workspaceId, campaign_id: c.id }, { tx });
    return changed;
  });
  deps.jobs.wake(launchAdCampaignJob);
  deps.resourceWatch.changed(c.id);
  return row;
}

export async function handle(input: ResumeAdCampaignInput, ctx: HandlerContext): Promise<ResumeAdCampaignOutput> {
  return {
    status: 200,
    body: adCampaignBody(await resumeAdCampaign(ctx.deps, actorFrom(ctx), input.path.campaign_id)),
  };
}
