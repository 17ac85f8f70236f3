// The mailbox_syncs table (migration 0018): where each read_replies mailbox's sync stands. A run takes the
// row's lease (lease_until) before it reads the provider and gives it back when done, so two workers never
// sync one mailbox at once; no transaction stays open across a provider call. Tenant rows: every function
// takes the workspace id right after the queryable; the sweep's cross-workspace query says so in its name.
import { query, type Queryable } from '../../db/queryable.ts';

export interface MailboxSyncRow {
  connector_id: string;
  workspace_id: string;
  history_id: string | null;
  last_synced_at: Date | null;
  last_full_sync_at: Date | null;
  last_error: string | null;
  lease_until: Date | null;
  requested_at: Date | null;
  updated_at: Date;
}

const columns = (q: Queryable) => query(q)`
  connector_id, workspace_id, history_id, last_synced_at, last_full_sync_at, last_error, lease_until, requested_at, updated_at`;

export async function findMailboxSync(
  q: Queryable,
  workspaceId: string,
  connectorId: string,
): Promise<MailboxSyncRow | undefined> {
  const [row] = await query(q)<MailboxSyncRow[]>`
    select ${columns(q)} from mailbox_syncs where workspace_id = ${workspaceId} and connector_id = ${connectorId}`;
  return row;
}

export function findMailboxSyncs(q: Queryable, workspaceId: string, connectorIds: string[]): Promise<MailboxSyncRow[]> {
  const sql = query(q);
  return sql<MailboxSyncRow[]>`
    select ${columns(q)} from mailbox_syncs
    where workspace_id = ${workspaceId} and connector_id = any(${sql.array(connectorIds)}::text[])`;
}

/** Marks a sync as asked for (the row made on first use); answers the row. */
export async function requestMailboxSync(
  q: Queryable,
  workspaceId: string,
  connectorId: string,
  now: Date,
): Promise<MailboxSyncRow> {
  const [row] = await query(q)<MailboxSyncRow[]>`
    insert into mailbox_syncs (connector_id, workspace_id, requested_at, updated_at)
    values (${connectorId}, ${workspaceId}, ${now}, ${now})
    on conflict (connector_id) do update set requested_at = coalesce(mailbox_syncs.requested_at, excluded.requested_at)
    returning ${columns(q)}`;
  return row;
}

/** Takes the mailbox's lease until `until` when no live run holds it; undefined when one does. */
export async function takeSyncLease(
  q: Queryable,
  workspaceId: string,
  connectorId: string,
  now: Date,
  until: Date,
): Promise<MailboxSyncRow | undefined> {
  const [row] = await query(q)<MailboxSyncRow[]>`
    insert into mailbox_syncs (connector_id, workspace_id, lease_until, updated_at)
    values (${connectorId}, ${workspaceId}, ${until}, ${now})
    on conflict (connector_id) do update set lease_until = excluded.lease_until, updated_at = excluded.updated_at
      where mailbox_syncs.lease_until is null or mailbox_syncs.lease_until < ${now}
    returning ${columns(q)}`;
  return row;
}

/** Keeps the lease of a run still going; false when it was lost (expired and taken by another run). */
export async function renewSyncLease(
  q: Queryable,
  workspaceId: string,
  connectorId: string,
  held: Date,
  until: Date,
): Promise<boolean> {
  const rows = await query(q)`
    update mailbox_syncs set lease_until = ${until}
    where workspace_id = ${workspaceId} and connector_id = ${connectorId} and lease_until = ${held}
    returning connector_id`;
  return rows.length > 0;
}

/** Where the next run starts: stored only after every message up to it is recorded. */
export async function storeHistoryId(
  q: Queryable,
  workspaceId: string,
  connectorId: string,
  fields: { historyId: string; fullSync: boolean; now: Date },
): Promise<void> {
  await query(q)`
    update mailbox_syncs set history_id = ${fields.historyId}, updated_at = ${fields.now},
      last_full_sync_at = coalesce(${fields.fullSync ? fields.now : null}::timestamptz, last_full_sync_at)
    where workspace_id = ${workspaceId} and connector_id = ${connectorId}`;
}

/** Ends a run that still holds its lease: the lease given back, a request made before it began answered, and the outcome (null error: it synced). */
export async function finishSync(
  q: Queryable,
  workspaceId: string,
  connectorId: string,
  fields: { error: string | null; held: Date; startedAt: Date; now: Date },
): Promise<void> {
  await query(q)`
    update mailbox_syncs set lease_until = null,
      requested_at = case when requested_at <= ${fields.startedAt} then null else requested_at end, last_error = ${fields.error}, updated_at = ${fields.now},
      last_synced_at = coalesce(${fields.error === null ? fields.now : null}::timestamptz, last_synced_at)
    where workspace_id = ${workspaceId} and connector_id = ${connectorId} and lease_until = ${fields.held}`;
}

/** The sweep's list: every connected Gmail mailbox that may read its replies, in any workspace. */
export function readableMailboxesAcrossWorkspaces(
  q: Queryable,
  readScopes: string[],
): Promise<Array<{ workspace_id: string; id: string }>> {
  const sql = query(q);
  return sql<Array<{ workspace_id: string; id: string }>>`
    select workspace_id, id from connectors
    where provider = 'gmail' and status = 'connected' and scopes_granted && ${sql.array(readScopes)}::text[]
    order by id`;
}
