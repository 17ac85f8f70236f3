import { findConnector } from './connectors-data.ts';
import type { PageBound } from '../../db/paging.ts';
import { listSandboxMessages as listRows, type SandboxMessageRow } from './sandbox-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';

/** The workspace's sandbox mailbox: what its sandbox-mode connectors sent. Any member may read it. */
export async function listSandboxMessages(deps: Deps, actor: Actor, request: { connectorId?: string; limit: number; before?: PageBound }): Promise<SandboxMessageRow[]> {
  let accountEmail: string | undefined;
  if (request.connectorId) {
    const connector = await findConnector(deps.db.sql, actor.workspaceId, request.connectorId);
    if (!connector) throw new ApiError('not_found', `No connector ${request.connectorId} in this workspace.`);
    if (!connector.account_email) return [];
    accountEmail = connector.account_email;
  }
  return listRows(deps.db.sql, actor.workspaceId, { limit: request.limit, before: request.before, accountEmail });
}
