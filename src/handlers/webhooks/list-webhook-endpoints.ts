import type { ListWebhookEndpointsInput, ListWebhookEndpointsOutput } from '../../generated/handlers.ts';
import { listEndpoints } from './webhook-endpoints-data.ts';
import type { Deps } from '../../deps.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { byCreation, listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { endpointBody } from './wire.ts';

export type ListWebhookEndpointsRequest = ListWebhookEndpointsInput['query'];

/** Admin-only; newest first. */
export function listWebhookEndpoints(deps: Deps, actor: Actor, request: ListWebhookEndpointsRequest) {
  requireAdmin(actor);
  return listPage(request, {
    scope: cursorScope(deps.auth, 'list_webhook_endpoints', actor.workspaceId),
    fetch: ({ limit, after }) => listEndpoints(deps.db.sql, actor.workspaceId, { limit, before: after }),
    toItem: endpointBody,
    position: byCreation,
  });
}

export async function handle(
  input: ListWebhookEndpointsInput,
  ctx: HandlerContext,
): Promise<ListWebhookEndpointsOutput> {
  return { status: 200, body: await listWebhookEndpoints(ctx.deps, actorFrom(ctx), input.query) };
}
