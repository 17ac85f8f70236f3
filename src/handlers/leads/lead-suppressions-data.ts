// The lead_suppressions table: addresses that never become an `active` lead again (unsubscribed,
// bounced, do-not-contact, deleted), kept by hash only. Tenant rows: every function takes the
// workspace id right after the queryable.
import { hash } from 'node:crypto';
import { query, type Queryable } from '../../db/queryable.ts';

export type SuppressionReason = 'unsubscribed' | 'bounced' | 'do_not_contact' | 'deleted';

/** The suppression list keys an address by this hash, so a deleted person's address is not kept. */
export const emailHash = (normalisedEmail: string) => hash('sha256', normalisedEmail, 'hex');

/** Puts an address on the workspace's suppression list (idempotent; the first reason stays). */
export async function suppress(
  q: Queryable,
  workspaceId: string,
  normalisedEmail: string,
  reason: SuppressionReason,
  now: Date,
): Promise<void> {
  await query(q)`
    insert into lead_suppressions (workspace_id, email_hash, reason, created_at)
    values (${workspaceId}, ${emailHash(normalisedEmail)}, ${reason}, ${now})
    on conflict (workspace_id, email_hash) do nothing`;
}

/**
 * The status of a new lead of a batch insert (whose rows are `i`): its address's suppression, else
 * active. A workspace without suppressions (the common case) answers once for the whole statement (an
 * uncorrelated subquery, run once), and no row pays for the hash of its address and the lookup.
 */
export function suppressedStatus(q: Queryable, workspaceId: string) {
  return query(q)`case when not exists (select from lead_suppressions where workspace_id = ${workspaceId}) then 'active'
    else coalesce((select case when s.reason in ('unsubscribed', 'bounced') then s.reason else 'do_not_contact' end from lead_suppressions s
                   where s.workspace_id = ${workspaceId} and s.email_hash = encode(sha256(convert_to(i.email, 'UTF8')), 'hex')), 'active') end`;
}
