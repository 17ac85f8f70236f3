import { listApiKeys as listKeyRows, type ApiKeyRow } from './api-keys-data.ts';
import type { PageBound } from '../../db/paging.ts';
import type { Deps } from '../../deps.ts';
import { requireAdmin, type Actor } from '../actor.ts';

/** The workspace's keys, newest first; `limit` rows at most, strictly before `before`. */
export async function listApiKeys(deps: Deps, actor: Actor, page: { limit: number; before?: PageBound }): Promise<ApiKeyRow[]> {
  requireAdmin(actor);
  return listKeyRows(deps.db.sql, actor.workspaceId, page);
}
