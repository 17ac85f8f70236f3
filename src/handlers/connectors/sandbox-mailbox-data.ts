// The sandbox mailbox as Gmail's read API sees it: one mailbox per (workspace, account address), shared by
// every grant of that account (a reconnect makes a new grant, not a new mailbox). History ids come from one
// sequence; a writer takes the mailbox's advisory lock before drawing its id and holds it to commit, and a
// reader takes it (shared) before reading "where history stands", so no message can commit below a
// historyId a reader was already given (which would hide it from the next incremental sync forever).
import { query, type Queryable } from '../../db/queryable.ts';
import { mailboxLockKey, type SandboxMailbox, type SandboxMessageRow } from './sandbox-data.ts';

/** A stored message with what Gmail's read API shows of it. `history_id` as text (int8). */
export interface SandboxMailRow extends SandboxMessageRow {
  grant_id: string;
  raw: string;
  labels: string[];
  history_id: string;
  in_reply_to: string | null;
  references_header: string | null;
}

// Unfolded header values straight from the stored MIME's header block, as the thread rule needs them.
const mailColumns = (q: Queryable) => query(q)`
  id, direction, thread_id, account_email, message_id_header, from_header, to_header, subject, text_body, html_body, created_at,
  grant_id, raw, labels, history_id::text as history_id,
  substring(regexp_replace(split_part(raw, E'\r\n\r\n', 1), E'\r\n[ \t]+', ' ', 'g') from E'(?:^|\n)In-Reply-To: ([^\r\n]*)') as in_reply_to,
  substring(regexp_replace(split_part(raw, E'\r\n\r\n', 1), E'\r\n[ \t]+', ' ', 'g') from E'(?:^|\n)References: ([^\r\n]*)') as references_header,
  null::text as list_unsubscribe, null::text as list_unsubscribe_post`;

const inMailbox = (q: Queryable, m: SandboxMailbox) =>
  query(q)`workspace_id = ${m.workspaceId} and lower(account_email) = lower(${m.accountEmail})`;

/**
 * Where the mailbox's history stands: every message committed so far is at or below it, every later one above.
 * A sequence never drawn from is drawn once, so no history id is ever 0.
 */
async function historyNow(tx: Queryable, m: SandboxMailbox): Promise<string> {
  const sql = query(tx);
  await sql`select pg_advisory_xact_lock_shared(hashtextextended(${mailboxLockKey(m)}, 0))`;
  const [row] = await sql<{ now: string }[]>`
    select (case when is_called then last_value else nextval('sandbox_history_ids') end)::text as now from sandbox_history_ids`;
  return row.now;
}

export function sandboxMailboxProfile(
  q: Queryable,
  m: SandboxMailbox,
): Promise<{ messages: number; threads: number; historyId: string }> {
  return query(q).begin(async (tx) => {
    const historyId = await historyNow(tx, m);
    const [row] = await query(tx)<{ messages: number; threads: number }[]>`
      select count(*)::int as messages, count(distinct thread_id)::int as threads from sandbox_messages where ${inMailbox(tx, m)}`;
    return { ...row, historyId };
  });
}

export interface HistoryPage {
  /** A record the sandbox no longer keeps lies after `after`: the caller must start over (Gmail's 404). */
  expired: boolean;
  added: SandboxMailRow[];
  historyId: string;
}

/**
 * Messages added after history id `after` (a page of the history after `start`), oldest first. History older
 * than `keptSince` is forgotten: when a forgotten record lies after `start`, or `start` was never issued, the
 * page is `expired`.
 */
export function readSandboxHistory(
  q: Queryable,
  m: SandboxMailbox,
  page: { start: string; after: string; limit: number; keptSince: Date; labelId?: string },
): Promise<HistoryPage> {
  return query(q).begin(async (tx) => {
    const sql = query(tx);
    const historyId = await historyNow(tx, m);
    const [gone] = await sql`
      select 1 from sandbox_messages
      where ${inMailbox(tx, m)} and history_id > ${page.start}::bigint and created_at < ${page.keptSince} limit 1`;
    if (gone || BigInt(page.start) > BigInt(historyId) || page.start === '0')
      return { expired: true, added: [], historyId };
    const added = await sql<SandboxMailRow[]>`
      select ${mailColumns(tx)} from sandbox_messages
      where ${inMailbox(tx, m)} and history_id > ${page.after}::bigint
        ${page.labelId ? sql`and ${page.labelId} = any(labels)` : sql``}
      order by sandbox_messages.history_id limit ${page.limit}`;
    return { expired: false, added, historyId };
  });
}

/** A page of the mailbox, newest first (users.messages.list), with the count of everything that matches. */
export async function listSandboxMailbox(
  q: Queryable,
  m: SandboxMailbox,
  page: {
    limit: number;
    belowHistoryId?: string;
    labelIds: string[];
    excludeLabelIds: string[];
    newerThan?: Date;
    olderThan?: Date;
  },
): Promise<{ rows: SandboxMailRow[]; total: number }> {
  const sql = query(q);
  const rows = await sql<(SandboxMailRow & { total: number })[]>`
    select ${mailColumns(q)}, count(*) over ()::int as total from sandbox_messages
    where ${inMailbox(q, m)}
      ${page.labelIds.length ? sql`and labels @> ${sql.array(page.labelIds)}::text[]` : sql``}
      ${page.excludeLabelIds.length ? sql`and not labels && ${sql.array(page.excludeLabelIds)}::text[]` : sql``}
      ${page.newerThan ? sql`and created_at > ${page.newerThan}` : sql``}
      ${page.olderThan ? sql`and created_at < ${page.olderThan}` : sql``}
      ${page.belowHistoryId ? sql`and history_id < ${page.belowHistoryId}::bigint` : sql``}
    order by sandbox_messages.history_id desc limit ${page.limit}`;
  return { rows, total: rows[0]?.total ?? 0 };
}

/** One message of the mailbox; another mailbox's message is not found. */
export async function findSandboxMailMessage(
  q: Queryable,
  m: SandboxMailbox,
  id: string,
): Promise<SandboxMailRow | undefined> {
  const [row] = await query(q)<SandboxMailRow[]>`
    select ${mailColumns(q)} from sandbox_messages where ${inMailbox(q, m)} and id = ${id}`;
  return row;
}

/** A thread's messages, oldest first; empty when the mailbox has no such thread. */
export function listSandboxThread(q: Queryable, m: SandboxMailbox, threadId: string): Promise<SandboxMailRow[]> {
  return query(q)<SandboxMailRow[]>`
    select ${mailColumns(q)} from sandbox_messages where ${inMailbox(q, m)} and thread_id = ${threadId}
    order by sandbox_messages.history_id`;
}

/** A sandbox message of the workspace by id, whichever mailbox holds it. */
export async function findSandboxMessageInWorkspace(
  q: Queryable,
  workspaceId: string,
  id: string,
): Promise<SandboxMailRow | undefined> {
  const [row] = await query(q)<SandboxMailRow[]>`
    select ${mailColumns(q)} from sandbox_messages where workspace_id = ${workspaceId} and id = ${id}`;
  return row;
}

/** What simulate_sandbox_inbound needs of a sequence message: where it went and whether it left. */
export interface SentSequenceMessage {
  id: string;
  mode: 'live' | 'sandbox';
  status: string;
  to_email: string | null;
  provider_message_id: string | null;
}

export async function findSequenceMessageForInbound(
  q: Queryable,
  workspaceId: string,
  id: string,
): Promise<SentSequenceMessage | undefined> {
  const [row] = await query(q)<SentSequenceMessage[]>`
    select id, mode, status, to_email, provider_message_id from sequence_messages
    where workspace_id = ${workspaceId} and id = ${id}`;
  return row;
}
