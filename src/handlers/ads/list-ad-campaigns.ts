import { listAdCampaignRows } from './ad-campaigns-data.ts';
import type { ListAdCampaignsInput, ListAdCampaignsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { byCreation, listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { adCampaignBody } from './wire.ts';

export type ListAdCampaignsRequest = ListAdCampaignsInput['query'];

/** The workspace's campaigns, newest first. */
export function listAdCampaigns(deps: Deps, actor: Actor, request: ListAdCampaignsRequest) {
  return listPage(request, {
    scope: cursorScope(deps.auth, 'list_ad_campaigns', actor.workspaceId),
    fetch: ({ limit, after }) =>
      listAdCampaignRows(deps.db.sql, actor.workspaceId, { statuses: request.status ?? [], before: after, limit }),
    toItem: adCampaignBody,
    position: byCreation,
  });
}

export async function handle(input: ListAdCampaignsInput, ctx: HandlerContext): Promise<ListAdCampaignsOutput> {
  return { status: 200, body: await listAdCampaigns(ctx.deps, actorFrom(ctx), input.query) };
}
