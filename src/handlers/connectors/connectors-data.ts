// The connectors table (consent states: oauth-states-data.ts). Tenant rows: every function takes the
// workspace id right after the queryable.
import type { Ids } from '../../deps.ts';
import type { PageBound } from '../../db/paging.ts';
import { query, type Queryable } from '../../db/queryable.ts';

export type ConnectorStatus = 'pending_consent' | 'connected' | 'failed' | 'expired' | 'revoked';

export interface ConnectorRow {
  id: string;
  workspace_id: string;
  provider: string;
  mode: 'live' | 'sandbox';
  status: ConnectorStatus;
  account_email: string | null;
  scopes_requested: string[];
  scopes_granted: string[];
  authorization_url: string | null;
  authorization_expires_at: Date | null;
  pending_state_hash: string | null;
  tokens_sealed: Uint8Array | null;
  token_key_id: string | null;
  access_expires_at: Date | null;
  refresh_lease_until: Date | null;
  failure_reason: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  connected_at: Date | null;
  revoked_at: Date | null;
  /** Sends per 24 hours across all sequences; null: the service's SEQUENCE_MAILBOX_DAILY_CAP. */
  daily_cap: number | null;
  warmup: Warmup | null;
  /** The hard-bounce rate over the last sends that pauses the mailbox (see sequences/mailbox-bounce-rate.ts). */
  bounce_rate_threshold: number;
  /** Set while the mailbox sends nothing: `bounce_rate` or `manual`. */
  sending_paused_reason: string | null;
  sending_paused_at: Date | null;
}

/** A warm-up ramp: start_per_day on its first day, increase_per_day more each whole day after, up to max_per_day. */
export interface Warmup {
  start_per_day: number;
  increase_per_day: number;
  max_per_day: number;
  started_at: string;
}

export interface ConnectorSendingFields {
  daily_cap: number | null;
  warmup: Warmup | null;
  bounce_rate_threshold: number;
  sending_paused_reason: string | null;
  sending_paused_at: Date | null;
}

export const columns = (q: Queryable) => query(q)`
  id, workspace_id, provider, mode, status, account_email, scopes_requested, scopes_granted, authorization_url,
  authorization_expires_at, pending_state_hash, tokens_sealed, token_key_id, access_expires_at, refresh_lease_until, failure_reason,
  created_by, created_at, updated_at, connected_at, revoked_at, daily_cap, warmup,
  round(bounce_rate_threshold::numeric, 4)::float8 as bounce_rate_threshold, sending_paused_reason, sending_paused_at`;

export interface NewConnector {
  provider: string;
  mode: 'live' | 'sandbox';
  scopesRequested: string[];
  createdBy: string | null;
  now: Date;
}

export async function insertConnector(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  fields: NewConnector,
): Promise<ConnectorRow> {
  const sql = query(q);
  const [row] = await sql<ConnectorRow[]>`
    insert into connectors (id, workspace_id, provider, mode, status, scopes_requested, created_by, created_at, updated_at)
    values (${ids.make('conn')}, ${workspaceId}, ${fields.provider}, ${fields.mode}, 'pending_consent', ${sql.array(fields.scopesRequested)},
            ${fields.createdBy}, ${fields.now}, ${fields.now})
    returning ${columns(q)}`;
  return row;
}

export async function findConnector(
  q: Queryable,
  workspaceId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ConnectorRow | undefined> {
  const sql = query(q);
  const [row] = await sql<ConnectorRow[]>`
    select ${columns(q)} from connectors where id = ${id} and workspace_id = ${workspaceId}
    ${options.forUpdate ? sql`for update` : sql``}`;
  return row;
}

export function listConnectorRows(
  q: Queryable,
  workspaceId: string,
  page: { limit: number; before?: PageBound; provider?: string },
): Promise<ConnectorRow[]> {
  const sql = query(q);
  const { before } = page;
  return sql<ConnectorRow[]>`
    select ${columns(q)} from connectors
    where workspace_id = ${workspaceId}
      ${page.provider ? sql`and provider = ${page.provider}` : sql``}
      ${before ? sql`and (created_at, id) < (${before.at}::timestamptz, ${before.id})` : sql``}
    order by created_at desc, id desc
    limit ${page.limit}`;
}

/** Starts (or restarts) the consent of a connector: pending_consent with this link and state. */
export async function setPendingConsent(
  q: Queryable,
  workspaceId: string,
  id: string,
  link: {
    url: string;
    expiresAt: Date;
    stateHash: string;
    mode: 'live' | 'sandbox';
    scopesRequested: string[];
    now: Date;
  },
): Promise<ConnectorRow> {
  const sql = query(q);
  const [row] = await sql<ConnectorRow[]>`
    update connectors set status = 'pending_consent', mode = ${link.mode}, authorization_url = ${link.url},
      scopes_requested = ${sql.array(link.scopesRequested)},
      authorization_expires_at = ${link.expiresAt}, pending_state_hash = ${link.stateHash}, failure_reason = null, updated_at = ${link.now}
    where id = ${id} and workspace_id = ${workspaceId}
    returning ${columns(q)}`;
  return row;
}

export interface ConnectedFields {
  accountEmail: string;
  scopesGranted: string[];
  tokensSealed: Uint8Array;
  tokenKeyId: string;
  accessExpiresAt: Date;
  now: Date;
}

/** pending_consent -> connected, for the flow of this state only; undefined when that flow is no longer current. */
export async function markConnected(
  q: Queryable,
  workspaceId: string,
  id: string,
  stateHash: string,
  fields: ConnectedFields,
): Promise<ConnectorRow | undefined> {
  const sql = query(q);
  const [row] = await sql<ConnectorRow[]>`
    update connectors set status = 'connected', account_email = ${fields.accountEmail}, scopes_granted = ${sql.array(fields.scopesGranted)},
      tokens_sealed = ${fields.tokensSealed}, token_key_id = ${fields.tokenKeyId}, access_expires_at = ${fields.accessExpiresAt},
      authorization_url = null, authorization_expires_at = null, pending_state_hash = null, failure_reason = null,
      connected_at = ${fields.now}, revoked_at = null, updated_at = ${fields.now}
    where id = ${id} and workspace_id = ${workspaceId} and status = 'pending_consent' and pending_state_hash = ${stateHash}
    returning ${columns(q)}`;
  return row;
}

/** A flow that ended without a connection: failed with a reason, link dropped, no tokens kept. */
export async function markFailed(
  q: Queryable,
  workspaceId: string,
  id: string,
  stateHash: string,
  reason: string,
  now: Date,
): Promise<ConnectorRow | undefined> {
  const [row] = await query(q)<ConnectorRow[]>`
    update connectors set status = 'failed', failure_reason = ${reason}, authorization_url = null, authorization_expires_at = null,
      pending_state_hash = null, updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId} and status = 'pending_consent' and pending_state_hash = ${stateHash}
    returning ${columns(q)}`;
  return row;
}

/**
 * Takes the refresh lease of a connected connector whose access token is still the one the caller saw
 * expiring (or any, with `force`); undefined when another instance holds the lease or already refreshed.
 */
export async function claimRefreshLease(
  q: Queryable,
  workspaceId: string,
  id: string,
  lease: { seenExpiry: Date | null; force: boolean; until: Date; now: Date },
): Promise<ConnectorRow | undefined> {
  const sql = query(q);
  const [row] = await sql<ConnectorRow[]>`
    update connectors set refresh_lease_until = ${lease.until}
    where id = ${id} and workspace_id = ${workspaceId} and status = 'connected'
      and (refresh_lease_until is null or refresh_lease_until < ${lease.now})
      ${lease.force ? sql`` : sql`and access_expires_at is not distinct from ${lease.seenExpiry}`}
    returning ${columns(q)}`;
  return row;
}

/**
 * New tokens after a refresh (the refresh token kept when the provider sent none); frees the lease. Nothing is
 * stored when the lease was taken away meanwhile (an upgrade consent replaced the grant: see markUpgraded).
 */
export async function storeRefreshedTokens(
  q: Queryable,
  workspaceId: string,
  id: string,
  fields: { tokensSealed: Uint8Array; tokenKeyId: string; accessExpiresAt: Date; now: Date },
): Promise<void> {
  await query(q)`
    update connectors set tokens_sealed = ${fields.tokensSealed}, token_key_id = ${fields.tokenKeyId},
      access_expires_at = ${fields.accessExpiresAt}, refresh_lease_until = null, updated_at = ${fields.now}
    where id = ${id} and workspace_id = ${workspaceId} and status = 'connected' and refresh_lease_until is not null`;
}

export async function releaseRefreshLease(q: Queryable, workspaceId: string, id: string): Promise<void> {
  await query(q)`update connectors set refresh_lease_until = null where id = ${id} and workspace_id = ${workspaceId}`;
}

/** Connected -> expired (the provider refused the refresh token) or revoked: tokens deleted either way. */
export async function endConnection(
  q: Queryable,
  workspaceId: string,
  id: string,
  status: 'expired' | 'revoked',
  reason: string | null,
  now: Date,
): Promise<ConnectorRow | undefined> {
  const [row] = await query(q)<ConnectorRow[]>`
    update connectors set status = ${status}, failure_reason = ${reason}, tokens_sealed = null, token_key_id = null, access_expires_at = null, refresh_lease_until = null,
      authorization_url = null, authorization_expires_at = null, pending_state_hash = null,
      revoked_at = case when ${status} = 'revoked' then ${now}::timestamptz else revoked_at end, updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId} and status <> ${status}
    returning ${columns(q)}`;
  return row;
}

/** The connectors of these ids in the workspace, in no particular order (a sequence's mailboxes). */
export function findConnectors(q: Queryable, workspaceId: string, ids: readonly string[]): Promise<ConnectorRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  const sql = query(q);
  return sql<ConnectorRow[]>`
    select ${columns(q)} from connectors where workspace_id = ${workspaceId} and id = any(${sql.array([...ids])}::text[])`;
}

/** Replaces a mailbox's sending limits and pause. */
export async function setConnectorSending(
  q: Queryable,
  workspaceId: string,
  id: string,
  fields: ConnectorSendingFields,
  now: Date,
): Promise<ConnectorRow | undefined> {
  const sql = query(q);
  const [row] = await sql<ConnectorRow[]>`
    update connectors set daily_cap = ${fields.daily_cap}, warmup = ${fields.warmup ? sql.json(fields.warmup as never) : null},
      bounce_rate_threshold = ${fields.bounce_rate_threshold}, sending_paused_reason = ${fields.sending_paused_reason},
      sending_paused_at = ${fields.sending_paused_at}, updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId}
    returning ${columns(q)}`;
  return row;
}

/** Pauses a mailbox's sending unless it is paused already; undefined then (so the pause is recorded once). */
export async function pauseConnectorSending(
  q: Queryable,
  workspaceId: string,
  id: string,
  reason: string,
  now: Date,
): Promise<ConnectorRow | undefined> {
  const [row] = await query(q)<ConnectorRow[]>`
    update connectors set sending_paused_reason = ${reason}, sending_paused_at = ${now}, updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId} and sending_paused_reason is null
    returning ${columns(q)}`;
  return row;
}
