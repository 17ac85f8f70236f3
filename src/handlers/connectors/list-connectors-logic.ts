import { listConnectors as listRows, type ConnectorRow } from './connectors-data.ts';
import type { PageBound } from '../../db/paging.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';

export function listConnectors(deps: Deps, actor: Actor, page: { limit: number; before?: PageBound; provider?: string }): Promise<ConnectorRow[]> {
  return listRows(deps.db.sql, actor.workspaceId, page);
}
