// The mailbox sync: one run reads what a read_replies mailbox received since the stored historyId
// (users.history.list), fetches each message not yet recorded once, and records it (record-inbound.ts).
// The history id advances only after every message up to it is recorded, so a run killed at any point
// is redone by the next one and the unique (connector, Gmail id) keeps it from recording anything twice.
// The first run, and a run whose history Google no longer keeps, reads the last 30 days instead (bounded).
// A lease keeps two runs off one mailbox; whatever goes wrong ends in last_error, never in a crash or an
// endless retry. A push receiver (users.watch) would only replace what triggers a run.
import { findConnector, type ConnectorRow } from '../connectors/connectors-data.ts';
import { connectorCapabilities } from '../connectors/google/google-endpoints.ts';
import type {
  FullMessage,
  MailboxReader,
  MessageMetadata,
  MessageRef,
  ReadOutcome,
} from '../connectors/providers/mailbox.ts';
import { providerFor } from '../connectors/providers/providers.ts';
import type { Deps } from '../../deps.ts';
import { recordedMessageIds } from './inbound-data.ts';
import { finishSync, renewSyncLease, storeHistoryId, takeSyncLease } from './mailbox-syncs-data.ts';
import { recordInbound, recordUnreadable } from './record-inbound.ts';
import { readFailure } from './read-failure.ts';

const LEASE_MS = 2 * 60_000;
const RENEW_EVERY = 50;
export const FULL_SYNC_DAYS = 30;
export const FULL_SYNC_MAX_MESSAGES = 2000;

export interface SyncOptions {
  signal?: AbortSignal;
  /** The mailbox's reader; by default its provider's. */
  reader?: MailboxReader;
}

export type SyncResult = 'synced' | 'failed' | 'busy' | 'skipped';

interface Run {
  deps: Deps;
  connector: ConnectorRow;
  reader: MailboxReader;
  signal?: AbortSignal;
  lease: Date;
}

/** Stops a run with a reason for last_error (the history id stays where it was). */
class Stop extends Error {}

const isOutgoing = (r: MessageRef) =>
  Array.isArray(r.labelIds) && (r.labelIds.includes('SENT') || r.labelIds.includes('DRAFT'));

function ok<T>(run: Run, outcome: ReadOutcome<T>): T {
  if (outcome.kind === 'ok') return outcome.value;
  throw new Stop(readFailure(run.connector, outcome));
}

async function checkpoint(run: Run): Promise<void> {
  if (run.signal?.aborted) throw new Stop('The sync was interrupted; the next one goes on from where it stopped.');
  const until = new Date(run.deps.clock.now().getTime() + LEASE_MS);
  const { workspace_id: ws, id } = run.connector;
  if (!(await renewSyncLease(run.deps.db.sql, ws, id, run.lease, until)))
    throw new Stop('Another sync took this mailbox over.');
  run.lease = until;
}

/** One message, once: with its text (format=full) when the connector may read it, else its headers; null when gone. */
async function fetch(
  run: Run,
  id: string,
  withText: boolean,
): Promise<{ meta: MessageMetadata; full: FullMessage | null } | null> {
  const { deps, connector, reader } = run;
  if (withText) {
    const full = await reader.full(deps, connector, id);
    if (full.kind === 'not_found') return null;
    return { meta: ok(run, full), full: ok(run, full) };
  }
  const meta = await reader.metadata(deps, connector, id);
  return meta.kind === 'not_found' ? null : { meta: ok(run, meta), full: null };
}

/** Fetches and records the messages of one page that are neither ours nor already recorded. */
async function take(run: Run, refs: MessageRef[]): Promise<void> {
  const { deps, connector, reader } = run;
  const wanted = [...new Map(refs.filter((r) => !isOutgoing(r)).map((r) => [r.id, r])).values()];
  const known = await recordedMessageIds(
    deps.db.sql,
    connector.workspace_id,
    connector.id,
    wanted.map((r) => r.id),
  );
  const withText = connectorCapabilities(connector).includes('read_reply_text');
  let fetched = 0;
  for (const ref of wanted) {
    if (known.has(ref.id)) continue;
    if (run.signal?.aborted || ++fetched % RENEW_EVERY === 0) await checkpoint(run);
    const message = await fetch(run, ref.id, withText);
    if (!message) continue;
    try {
      await recordInbound(deps, connector, message.meta, message.full);
    } catch (err) {
      // A message we cannot record must not stop the mailbox's sync for good: it is kept as ignored.
      deps.log.error(
        { err, connector_id: connector.id, message_id: ref.id },
        'inbound message not recordable; ignored',
      );
      await recordUnreadable(deps, connector, ref.id);
    }
  }
}

/** The last `FULL_SYNC_DAYS` days, at most FULL_SYNC_MAX_MESSAGES, then history from where the mailbox stood before. */
async function fullSync(run: Run): Promise<void> {
  const { deps, connector, reader } = run;
  const { historyId } = ok(run, await reader.profile(deps, connector));
  let pageToken: string | undefined;
  let seen = 0;
  do {
    const page = ok(run, await reader.recent(deps, connector, FULL_SYNC_DAYS, pageToken));
    const refs = page.messages.slice(0, FULL_SYNC_MAX_MESSAGES - seen);
    await take(run, refs);
    seen += refs.length;
    pageToken = page.nextPageToken;
    await checkpoint(run);
  } while (pageToken && seen < FULL_SYNC_MAX_MESSAGES);
  const now = deps.clock.now();
  await storeHistoryId(deps.db.sql, connector.workspace_id, connector.id, { historyId, fullSync: true, now });
}

async function incremental(run: Run, startHistoryId: string): Promise<void> {
  const { deps, connector, reader } = run;
  let pageToken: string | undefined;
  let latest = startHistoryId;
  do {
    const page = await reader.history(deps, connector, startHistoryId, pageToken);
    if (page.kind === 'history_expired') return fullSync(run);
    const { added, historyId, nextPageToken } = ok(run, page);
    await take(run, added);
    latest = historyId;
    pageToken = nextPageToken;
    await checkpoint(run);
  } while (pageToken);
  const now = deps.clock.now();
  await storeHistoryId(deps.db.sql, connector.workspace_id, connector.id, { historyId: latest, fullSync: false, now });
}

/** The keys get_connector and sync_connector_mailbox wait on. */
export const syncWatchKey = (connectorId: string) => `mailbox-sync:${connectorId}`;
function changed(deps: Deps, connectorId: string): void {
  deps.resourceWatch.changed(connectorId);
  deps.resourceWatch.changed(syncWatchKey(connectorId));
}

/** One run for one mailbox: `busy` when another holds it, `skipped` when it cannot read replies. */
export async function syncMailbox(
  deps: Deps,
  workspaceId: string,
  connectorId: string,
  options: SyncOptions = {},
): Promise<SyncResult> {
  const connector = await findConnector(deps.db.sql, workspaceId, connectorId);
  if (!connector || connector.status !== 'connected' || !connectorCapabilities(connector).includes('read_replies'))
    return 'skipped';
  const reader = options.reader ?? providerFor(connector.provider)?.mailbox?.read;
  if (!reader) return 'skipped';
  const startedAt = deps.clock.now();
  const lease = new Date(startedAt.getTime() + LEASE_MS);
  const row = await takeSyncLease(deps.db.sql, workspaceId, connectorId, startedAt, lease);
  if (!row) return 'busy';
  changed(deps, connectorId);
  const run: Run = { deps, connector, reader, signal: options.signal, lease };
  let error: string | null = null;
  try {
    await (row.history_id ? incremental(run, row.history_id) : fullSync(run));
  } catch (err) {
    if (!(err instanceof Stop)) deps.log.error({ err, connector_id: connectorId }, 'mailbox sync failed');
    error = err instanceof Stop ? err.message : 'The sync stopped on an unexpected error; the next one tries again.';
  }
  await finishSync(deps.db.sql, workspaceId, connectorId, { error, held: run.lease, startedAt, now: deps.clock.now() });
  changed(deps, connectorId);
  return error === null ? 'synced' : 'failed';
}
