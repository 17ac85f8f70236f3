// The `mailbox_sync` of a connector as get_connector, list_connectors and sync_connector_mailbox show it:
// null for a connector that cannot read replies, else where its sync stands (replies/sync-mailbox.ts).
import type { Queryable } from '../../db/queryable.ts';
import { findMailboxSyncs, type MailboxSyncRow } from '../replies/mailbox-syncs-data.ts';
import { connectorCapabilities } from './google/google-endpoints.ts';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** `running` while a run holds the lease, `queued` when one was asked for and has not run, else `idle`. */
export function mailboxSyncBody(
  c: { id: string; provider: string; scopes_granted: readonly string[] },
  row: MailboxSyncRow | null | undefined,
) {
  if (!connectorCapabilities(c).includes('read_replies')) return null;
  const status: 'running' | 'queued' | 'idle' = row?.lease_until ? 'running' : row?.requested_at ? 'queued' : 'idle';
  return {
    connector_id: c.id,
    status,
    history_id: row?.history_id ?? null,
    last_synced_at: iso(row?.last_synced_at),
    last_full_sync_at: iso(row?.last_full_sync_at),
    last_error: row?.last_error ?? null,
  };
}

/** The sync rows of these connectors, by connector id. */
export async function mailboxSyncsOf(
  q: Queryable,
  workspaceId: string,
  connectors: Array<{ id: string }>,
): Promise<Map<string, MailboxSyncRow>> {
  if (connectors.length === 0) return new Map();
  const rows = await findMailboxSyncs(
    q,
    workspaceId,
    connectors.map((c) => c.id),
  );
  return new Map(rows.map((r) => [r.connector_id, r]));
}
