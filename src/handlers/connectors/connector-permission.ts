// Who may change a connector (revoke it, set its sending limits): workspace admins, or the member who connected it.
import type { Actor } from '../actor.ts';
import { ApiError } from '../../errors.ts';
import type { ConnectorRow } from './connectors-data.ts';

/** Throws 403 unless the actor is an admin or the member who connected it; `action` says what was refused. */
export function requireConnectorManager(actor: Actor, connector: ConnectorRow, action: string): void {
  const admin = actor.role === 'owner' || actor.role === 'admin';
  if (!admin && (connector.created_by === null || connector.created_by !== actor.userId))
    throw new ApiError('forbidden', `Only workspace admins, or the member who connected it, can ${action}.`);
}
