import { listAdCampaignRows, type AdCampaignRow, type AdCampaignStatus } from './ad-campaigns-data.ts';
import type { ListAdCampaignsInput, ListAdCampaignsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';
import { adCampaignBody } from './wire.ts';

const statuses: readonly AdCampaignStatus[] = ['draft', 'launching', 'pending_review', 'active', 'disapproved', 'paused', 'completed', 'archived'];

export function listAdCampaigns(deps: Deps, actor: Actor, page: { statuses: AdCampaignStatus[]; before?: { at: string; id: string }; limit: number }): Promise<AdCampaignRow[]> {
  return listAdCampaignRows(deps.db.sql, actor.workspaceId, page);
}

export async function handle(input: ListAdCampaignsInput, ctx: HandlerContext): Promise<ListAdCampaignsOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_ad_campaigns', actor.workspaceId);
  const rows = await listAdCampaigns(ctx.deps, actor, { statuses: commaList(input.query.status, 'status', statuses), before: decodeCursor(input.query.cursor, scope), limit: limit + 1 });
  return { status: 200, body: page(rows, limit, adCampaignBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}
