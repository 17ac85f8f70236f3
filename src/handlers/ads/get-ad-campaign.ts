import type { AdCampaignRow, AdCampaignStatus } from './ad-campaigns-data.ts';
import type { GetAdCampaignInput, GetAdCampaignOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { waitForChange, type Watched } from '../operations/wait-for-change.ts';
import { requireCampaign } from './campaign-records.ts';
import { adCampaignBody } from './wire.ts';

/** Campaigns whose status moves on its own soon: the launch job, or the platform's review. */
const TRANSITIONAL = new Set<AdCampaignStatus>(['launching', 'pending_review']);
const watchedCampaign: Watched<AdCampaignRow> = {
  fingerprint: (row) => row.status,
  settled: (row) => !TRANSITIONAL.has(row.status),
};

/**
 * With `waitSeconds`, a launching or in-review campaign is answered as soon as its status changes (or the
 * wait ends); any other campaign at once, as get_connector does for consent.
 */
export function getAdCampaign(
  deps: Deps,
  actor: Actor,
  id: string,
  wait: { waitSeconds?: number; signal?: AbortSignal } = {},
): Promise<AdCampaignRow> {
  const read = () => requireCampaign(deps.db.sql, actor.workspaceId, id);
  return waitForChange(
    deps,
    actor,
    { id, waitSeconds: wait.waitSeconds ?? 0, signal: wait.signal },
    read,
    watchedCampaign,
  );
}

export async function handle(input: GetAdCampaignInput, ctx: HandlerContext): Promise<GetAdCampaignOutput> {
  const row = await getAdCampaign(ctx.deps, actorFrom(ctx), input.path.campaign_id, {
    waitSeconds: input.query.wait_seconds ?? 0,
    signal: ctx.signal,
  });
  return { status: 200, body: adCampaignBody(row) };
}
