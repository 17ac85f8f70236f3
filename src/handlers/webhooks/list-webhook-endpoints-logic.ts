import type { PageBound } from '../../db/paging.ts';
import { listEndpoints, type EndpointRow } from './webhooks-data.ts';
import type { Deps } from '../../deps.ts';
import { requireAdmin, type Actor } from '../actor.ts';

export function listWebhookEndpoints(deps: Deps, actor: Actor, page: { limit: number; before?: PageBound }): Promise<EndpointRow[]> {
  requireAdmin(actor);
  return listEndpoints(deps.db.sql, actor.workspaceId, page);
}
