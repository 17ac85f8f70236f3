import { listConnectors as listRows, type ConnectorRow } from '../../data/connectors.ts';
import type { PageBound } from '../../data/paging.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';

export function listConnectors(deps: Deps, actor: Actor, page: { limit: number; before?: PageBound; provider?: string }): Promise<ConnectorRow[]> {
  return listRows(deps.db.sql, actor.workspaceId, page);
}
