import { listMembers as listMemberRows, type MemberRow } from './memberships-data.ts';
import type { PageBound } from '../../db/paging.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';

/** Every member may see who else belongs to the workspace; oldest first, strictly after `after`. */
export function listMembers(deps: Deps, actor: Actor, page: { limit: number; after?: PageBound }): Promise<MemberRow[]> {
  return listMemberRows(deps.db.sql, actor.workspaceId, page);
}
