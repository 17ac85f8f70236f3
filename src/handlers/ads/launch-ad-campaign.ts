// Launching spends money, so it needs the budget repeated exactly (`confirm`) and a connected meta_ads
// connector; then the campaign is `launching` and the launch job (launch-job.ts) builds it at the
// platform. Launching a campaign that is already launched changes nothing.
import { changeAdCampaign, type AdCampaignRow } from './ad-campaigns-data.ts';
import type { LaunchAdCampaignInput, LaunchAdCampaignOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { launchAdCampaignJob } from './launch-job.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { requireCampaign } from './campaign-records.ts';
import { resolveInterests } from './platform-fields.ts';
import { campaignConnector, platformSession } from './platform.ts';
import { adCampaignBody, adCampaignEventData } from './wire.ts';

export interface BudgetConfirmation {
  daily_budget_minor: number;
  currency: string;
}

const LAUNCHED = new Set(['launching', 'pending_review', 'active', 'disapproved']);

export async function launchAdCampaign(
  deps: Deps,
  actor: Actor,
  request: { campaignId: string; confirm: BudgetConfirmation },
): Promise<AdCampaignRow> {
  const seen = await requireCampaign(deps.db.sql, actor.workspaceId, request.campaignId);
  if (LAUNCHED.has(seen.status)) return seen;
  checkLaunchable(seen, request.confirm, deps.clock.now());
  const connector = await campaignConnector(deps, seen);
  // Refused before anything is spent: an interest Meta does not know (the 400 names it).
  if (seen.targeting.interests?.length)
    await resolveInterests(deps, await platformSession(deps, seen), seen.targeting.interests);
  const row = await deps.db.sql.begin(async (tx) => {
    const c = await requireCampaign(tx, actor.workspaceId, request.campaignId, { forUpdate: true });
    if (LAUNCHED.has(c.status)) return c;
    checkLaunchable(c, request.confirm, deps.clock.now());
    const now = deps.clock.now();
    const launching = await changeAdCampaign(
      tx,
      actor.workspaceId,
      c.id,
      ['draft'],
      { status: 'launching', statusReason: null, adAccountId: connector.account_email, launchedAt: now },
      now,
    );
    if (!launching)
      throw new ApiError('ad_campaign_state_conflict', `Campaign ${c.id} changed meanwhile; get it again.`);
    await recordEvent(
      deps,
      tx,
      actor.workspaceId,
      eventActor(actor),
      'ad_campaign.launching',
      adCampaignEventData(launching),
    );
    await deps.jobs.enqueue(launchAdCampaignJob, { workspace_id: actor.workspaceId, campaign_id: c.id }, { tx });
    return launching;
  });
  deps.resourceWatch.changed(row.id);
  deps.jobs.wake(launchAdCampaignJob);
  return row;
}

function checkLaunchable(c: AdCampaignRow, confirm: BudgetConfirmation, now: Date): void {
  if (c.status === 'paused')
    throw new ApiError(
      'ad_campaign_state_conflict',
      `Campaign ${c.id} was launched and is paused: call resume_ad_campaign.`,
    );
  if (c.status !== 'draft')
    throw new ApiError('ad_campaign_state_conflict', `A ${c.status} campaign cannot be launched.`);
  if (confirm.daily_budget_minor !== c.daily_budget_minor || confirm.currency !== c.currency) {
    throw new ApiError(
      'budget_confirmation_mismatch',
      `Nothing was launched: confirm must repeat the daily budget exactly, {daily_budget_minor: ${c.daily_budget_minor}, currency: "${c.currency}"}, after the human agreed to spend it.`,
      {
        errors: [
          {
            field: 'confirm',
            code: 'budget_confirmation_mismatch',
            message: `expected ${c.daily_budget_minor} ${c.currency}`,
          },
        ],
      },
    );
  }
  if (c.end_at && c.end_at.getTime() <= now.getTime())
    throw new ApiError(
      'ad_campaign_state_conflict',
      `Campaign ${c.id} ends at ${c.end_at.toISOString()}, already past: update end_at first.`,
    );
}

export async function handle(input: LaunchAdCampaignInput, ctx: HandlerContext): Promise<LaunchAdCampaignOutput> {
  const row = await launchAdCampaign(ctx.deps, actorFrom(ctx), {
    campaignId: input.path.campaign_id,
    confirm: input.body.confirm,
  });
  return { status: 202, body: adCampaignBody(row) };
}
