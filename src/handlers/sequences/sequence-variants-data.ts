// The A/B test queries on sequences and their messages (migration 0021: sequences.auto_select_winner and
// variant_winners, sequence_messages.variant). Tenant rows: the workspace id comes second, except in the
// dispatcher's cross-workspace lookup, which says so in its name.
import { query, type Queryable } from '../../db/queryable.ts';
import type { AutoSelectWinner, VariantDecision } from './sequences-data.ts';
import type { VariantOutcome } from './variant-verdict.ts';

/** Active sequences that pick winners and still have a step with variants and no decision. */
export function sequencesTestingVariantsAcrossWorkspaces(
  q: Queryable,
): Promise<Array<{ workspace_id: string; id: string }>> {
  return query(q)<Array<{ workspace_id: string; id: string }>>`
    select s.workspace_id, s.id from sequences s
    where s.status = 'active' and s.auto_select_winner is not null
      and exists (
        select 1 from jsonb_array_elements(s.steps) with ordinality as st(step, position)
        where jsonb_typeof(st.step->'variants') = 'array'
          and not exists (select 1 from jsonb_array_elements(s.variant_winners) d where (d->>'step')::int = st.position))`;
}

/**
 * Per step and variant: delivered messages (sent and not bounced back) and their successes on the metric.
 * A click counts only on a message sent with its links tracked, and only those are the click rate's base.
 */
export async function variantOutcomes(
  q: Queryable,
  workspaceId: string,
  sequenceId: string,
  metric: AutoSelectWinner['metric'],
): Promise<Array<VariantOutcome & { step: number }>> {
  const sql = query(q);
  const success = metric === 'reply_rate' ? sql`reply_state = 'replied'` : sql`clicked_at is not null`;
  return sql<Array<VariantOutcome & { step: number }>>`
    select step, variant, count(*)::int as delivered, count(*) filter (where ${success})::int as successes
    from sequence_messages
    where workspace_id = ${workspaceId} and sequence_id = ${sequenceId} and variant is not null
      and status = 'sent' and reply_state is distinct from 'bounced'
      ${metric === 'click_rate' ? sql`and tracked_clicks` : sql``}
    group by step, variant`;
}

/** Records a step's winner unless the step already has one; false when it had. */
export async function appendVariantWinner(
  q: Queryable,
  workspaceId: string,
  sequenceId: string,
  decision: VariantDecision,
  now: Date,
): Promise<boolean> {
  const sql = query(q);
  const rows = await sql`
    update sequences set variant_winners = variant_winners || ${sql.json([decision] as never)}::jsonb, updated_at = ${now}
    where workspace_id = ${workspaceId} and id = ${sequenceId}
      and not exists (select 1 from jsonb_array_elements(variant_winners) d where (d->>'step')::int = ${decision.step})
    returning id`;
  return rows.length === 1;
}

/** The step's messages not yet taken by a sender move to the winner; claimed, sending and sent ones keep theirs. */
export async function switchScheduledMessages(
  q: Queryable,
  workspaceId: string,
  sequenceId: string,
  change: { step: number; variant: number; now: Date },
): Promise<number> {
  const rows = await query(q)`
    update sequence_messages set variant = ${change.variant}, updated_at = ${change.now}
    where workspace_id = ${workspaceId} and sequence_id = ${sequenceId} and step = ${change.step}
      and status = 'scheduled' and variant is distinct from ${change.variant}
    returning id`;
  return rows.length;
}
