// The sandbox provider's tables (sandbox_grants, sandbox_tokens, sandbox_messages): what Google would
// keep, as the service keeps it in sandbox mode. Codes and tokens are stored as hashes. Grants belong
// to the workspace whose connector asked for them; lookups by code or token come before any workspace
// is known (the provider only sees the credential), and say so in their names.
import type { Ids } from '../../deps.ts';
import type { PageBound } from '../../db/paging.ts';
import { query, type Queryable } from '../../db/queryable.ts';

export interface SandboxGrantRow {
  id: string;
  workspace_id: string;
  account_email: string;
  scopes: string[];
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  code_expires_at: Date;
  code_used_at: Date | null;
  created_at: Date;
  revoked_at: Date | null;
}

const grantColumns = (q: Queryable) => query(q)`
  id, workspace_id, account_email, scopes, client_id, redirect_uri, code_challenge, code_expires_at, code_used_at, created_at, revoked_at`;

export async function insertSandboxGrant(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  fields: {
    accountEmail: string;
    scopes: string[];
    clientId: string;
    redirectUri: string;
    codeHash: string;
    codeChallenge: string;
    codeExpiresAt: Date;
    now: Date;
  },
): Promise<SandboxGrantRow> {
  const sql = query(q);
  const [row] = await sql<SandboxGrantRow[]>`
    insert into sandbox_grants (id, workspace_id, account_email, scopes, client_id, redirect_uri, code_hash, code_challenge, code_expires_at, created_at)
    values (${ids.make('sgr')}, ${workspaceId}, ${fields.accountEmail}, ${sql.array(fields.scopes)}, ${fields.clientId}, ${fields.redirectUri},
            ${fields.codeHash}, ${fields.codeChallenge}, ${fields.codeExpiresAt}, ${fields.now})
    returning ${grantColumns(q)}`;
  return row;
}

/** Marks the code used and returns the grant as it was, so a second exchange sees `code_used_at` set. */
export async function claimSandboxCodeByHash(
  q: Queryable,
  codeHash: string,
  now: Date,
): Promise<SandboxGrantRow | undefined> {
  const [row] = await query(q)<SandboxGrantRow[]>`
    with old as (select * from sandbox_grants where code_hash = ${codeHash} for update)
    update sandbox_grants g set code_used_at = coalesce(g.code_used_at, ${now})
    from old where g.id = old.id
    returning old.id, old.workspace_id, old.account_email, old.scopes, old.client_id, old.redirect_uri, old.code_challenge,
      old.code_expires_at, old.code_used_at, old.created_at, old.revoked_at`;
  return row;
}

/** Revokes a grant and every token issued from it (a replayed code or a revocation request). */
export async function revokeSandboxGrant(q: Queryable, grantId: string, now: Date): Promise<void> {
  const sql = query(q);
  await sql`update sandbox_grants set revoked_at = coalesce(revoked_at, ${now}) where id = ${grantId}`;
  await sql`update sandbox_tokens set revoked_at = coalesce(revoked_at, ${now}) where grant_id = ${grantId}`;
}

export async function insertSandboxToken(
  q: Queryable,
  grantId: string,
  fields: { tokenHash: string; kind: 'access' | 'refresh'; expiresAt: Date | null; now: Date },
): Promise<void> {
  await query(q)`
    insert into sandbox_tokens (token_hash, grant_id, kind, expires_at, created_at)
    values (${fields.tokenHash}, ${grantId}, ${fields.kind}, ${fields.expiresAt}, ${fields.now})`;
}

export interface SandboxTokenGrant {
  kind: 'access' | 'refresh';
  expires_at: Date | null;
  revoked_at: Date | null;
  grant: SandboxGrantRow;
}

export async function findSandboxTokenByHash(q: Queryable, tokenHash: string): Promise<SandboxTokenGrant | undefined> {
  const [row] = await query(q)<
    (SandboxGrantRow & { kind: 'access' | 'refresh'; token_expires_at: Date | null; token_revoked_at: Date | null })[]
  >`
    select t.kind, t.expires_at as token_expires_at, t.revoked_at as token_revoked_at,
      g.id, g.workspace_id, g.account_email, g.scopes, g.client_id, g.redirect_uri, g.code_challenge, g.code_expires_at, g.code_used_at, g.created_at, g.revoked_at
    from sandbox_tokens t join sandbox_grants g on g.id = t.grant_id
    where t.token_hash = ${tokenHash}`;
  if (!row) return undefined;
  const { kind, token_expires_at, token_revoked_at, ...grant } = row;
  return { kind, expires_at: token_expires_at, revoked_at: token_revoked_at ?? grant.revoked_at, grant };
}

/** A sandbox mailbox: the workspace's mail of one account address, whichever grant of it sent or reads. */
export interface SandboxMailbox {
  workspaceId: string;
  accountEmail: string;
}

/** The advisory lock of one mailbox: writers take it to draw a history id, readers (shared) to read where it stands. */
export const mailboxLockKey = (m: SandboxMailbox) => `sandbox-mailbox:${m.workspaceId}:${m.accountEmail.toLowerCase()}`;

export interface SandboxMessageRow {
  id: string;
  /** `sent` through the sandbox Gmail, or `inbound`: made by a person or the test helper as the lead. */
  direction: 'sent' | 'inbound';
  thread_id: string;
  account_email: string;
  message_id_header: string | null;
  from_header: string | null;
  to_header: string | null;
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
  /** The RFC 8058 headers as sent (unfolded), so one-click unsubscribe can be tried from the sandbox. */
  list_unsubscribe: string | null;
  list_unsubscribe_post: string | null;
  created_at: Date;
}

// The two headers come from the stored MIME's header block (before the first blank line), unfolded.
const messageColumns = (q: Queryable) => query(q)`
  id, direction, thread_id, account_email, message_id_header, from_header, to_header, subject, text_body, html_body, created_at,
  substring(regexp_replace(split_part(raw, E'\r\n\r\n', 1), E'\r\n[ \t]+', ' ', 'g') from E'(?:^|\n)List-Unsubscribe: ([^\r\n]*)') as list_unsubscribe,
  substring(split_part(raw, E'\r\n\r\n', 1) from E'(?:^|\n)List-Unsubscribe-Post: ([^\r\n]*)') as list_unsubscribe_post`;

export async function insertSandboxMessage(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  fields: Omit<
    SandboxMessageRow,
    'id' | 'created_at' | 'list_unsubscribe' | 'list_unsubscribe_post' | 'direction' | 'thread_id'
  > & {
    grantId: string;
    raw: string;
    now: Date;
    /** Inbound messages and sends into a thread name it; a new message starts its own (its id). */
    threadId?: string;
    direction?: 'sent' | 'inbound';
  },
): Promise<SandboxMessageRow> {
  const id = ids.make('smsg');
  const direction = fields.direction ?? 'sent';
  const lockKey = mailboxLockKey({ workspaceId, accountEmail: fields.account_email });
  // The history id is drawn under the mailbox's lock, held to commit (see sandbox-mailbox-data.ts).
  const [row] = await query(q)<SandboxMessageRow[]>`
    insert into sandbox_messages (id, workspace_id, grant_id, account_email, raw, message_id_header, from_header, to_header, subject, text_body, html_body, created_at,
                                  direction, thread_id, labels, history_id)
    select ${id}, ${workspaceId}, ${fields.grantId}, ${fields.account_email}, ${fields.raw}, ${fields.message_id_header},
            ${fields.from_header}, ${fields.to_header}, ${fields.subject}, ${fields.text_body}, ${fields.html_body}, ${fields.now}::timestamptz,
            ${direction}, ${fields.threadId ?? id}, ${query(q).array(direction === 'sent' ? ['SENT'] : ['INBOX', 'UNREAD'])}::text[],
            nextval('sandbox_history_ids')
    from (select pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))) as mailbox_lock
    returning ${messageColumns(q)}`;
  return row;
}

/** A page of the workspace's sandbox mail, newest first, optionally of one sending account. */
export function listSandboxMessageRows(
  q: Queryable,
  workspaceId: string,
  page: { limit: number; before?: PageBound; accountEmail?: string },
): Promise<SandboxMessageRow[]> {
  const sql = query(q);
  const { before } = page;
  return sql<SandboxMessageRow[]>`
    select ${messageColumns(q)} from sandbox_messages
    where workspace_id = ${workspaceId}
      ${page.accountEmail ? sql`and lower(account_email) = lower(${page.accountEmail})` : sql``}
      ${before ? sql`and (created_at, id) < (${before.at}::timestamptz, ${before.id})` : sql``}
    order by created_at desc, id desc
    limit ${page.limit}`;
}
