import { findConnector, type ConnectorRow } from '../../data/connectors.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';

/**
 * With `waitSeconds`, answers as soon as the status changes (the human allowed or denied access) or
 * the wait ends, holding no database connection meanwhile: the same wake-ups as get_operation.
 */
export async function getConnector(deps: Deps, actor: Actor, request: { connectorId: string; waitSeconds: number; signal?: AbortSignal }): Promise<ConnectorRow> {
  const read = async () => {
    const row = await findConnector(deps.db.sql, actor.workspaceId, request.connectorId);
    if (!row) throw new ApiError('not_found', `No connector ${request.connectorId} in this workspace.`);
    return row;
  };
  const deadline = Date.now() + request.waitSeconds * 1000;
  if (request.waitSeconds > 0) await deps.resourceWatch.ready();
  const first = await read();
  let current = first;
  while (current.status === first.status) {
    const left = deadline - Date.now();
    if (left <= 0 || request.signal?.aborted) break;
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    const woken = deps.resourceWatch.wait(request.connectorId, Math.min(left, deps.config.operationWaitRecheckMs), stop.signal);
    try {
      current = await read();
      if (current.status !== first.status) break;
      await woken;
      current = await read();
    } finally {
      stop.abort();
      request.signal?.removeEventListener('abort', onAbort);
    }
  }
  return current;
}
