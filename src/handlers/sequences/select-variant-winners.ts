// auto_select_winner at work. Each dispatcher pass (sender.ts) looks at the active sequences that pick
// winners and still test a step; a step whose variants all have their minimum of delivered messages and
// whose best variant beats the runner-up significantly (variant-verdict.ts) gets a winner: the decision is
// appended to the sequence, recorded as an `email_sequence.variant_selected` event, and the step's messages
// still scheduled switch to it (messages made afterwards get it from variantForNewMessage). The counts are
// read first without a lock, so a pass where nothing is ready costs one grouped count per sequence; a
// verdict is then taken again under the sequence's row lock, so two dispatchers decide a step once, and
// messages being made meanwhile (under a share lock) are either seen and switched or made with the winner.
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../db/queryable.ts';
import { recordEvent } from '../events/record-event.ts';
import { SYSTEM } from './send-settle.ts';
import { findSequence, type SequenceRow, type VariantDecision } from './sequences-data.ts';
import {
  appendVariantWinner,
  sequencesTestingVariantsAcrossWorkspaces,
  switchScheduledMessages,
  variantOutcomes,
} from './sequence-variants-data.ts';
import { judgeVariants } from './variant-verdict.ts';

/** The winners the sequence's undecided steps would get now. */
async function winnersNow(q: Queryable, s: SequenceRow, now: Date): Promise<VariantDecision[]> {
  const rule = s.auto_select_winner;
  if (s.status !== 'active' || !rule) return [];
  const outcomes = await variantOutcomes(q, s.workspace_id, s.id, rule.metric);
  return s.steps.flatMap((step) => {
    if (!step.variants?.length || s.variant_winners.some((d) => d.step === step.position)) return [];
    const verdict = judgeVariants(
      step,
      outcomes.filter((o) => o.step === step.position),
      rule,
      now,
    );
    return verdict.kind === 'winner' ? [verdict.decision] : [];
  });
}

/** Decides the steps of one sequence that are ready; returns the decisions made by this call. */
export async function decideVariantWinners(
  deps: Deps,
  workspaceId: string,
  sequenceId: string,
): Promise<VariantDecision[]> {
  const now = deps.clock.now();
  const unlocked = await findSequence(deps.db.sql, workspaceId, sequenceId);
  if (!unlocked || (await winnersNow(deps.db.sql, unlocked, now)).length === 0) return [];
  const made = await deps.db.sql.begin(async (tx) => {
    const s = await findSequence(tx, workspaceId, sequenceId, { forUpdate: true });
    if (!s) return [];
    const decisions: VariantDecision[] = [];
    for (const decision of await winnersNow(tx, s, now)) {
      if (!(await appendVariantWinner(tx, workspaceId, s.id, decision, now))) continue;
      const switched = await switchScheduledMessages(tx, workspaceId, s.id, {
        step: decision.step,
        variant: decision.variant,
        now,
      });
      await recordEvent(deps, tx, workspaceId, SYSTEM, 'email_sequence.variant_selected', {
        sequence_id: s.id,
        ...decision,
        switched_messages: switched,
      });
      decisions.push(decision);
    }
    return decisions;
  });
  for (const d of made)
    deps.log.info(
      { sequence_id: sequenceId, step: d.step, variant: d.label, p_value: d.p_value },
      'A/B test decided: the rest of the step gets the winner',
    );
  if (made.length) deps.resourceWatch.changed(sequenceId);
  return made;
}

/** The dispatcher's pass over every sequence still testing a step; a failed decision never stops sending. */
export async function selectVariantWinners(deps: Deps): Promise<VariantDecision[]> {
  const made: VariantDecision[] = [];
  for (const s of await sequencesTestingVariantsAcrossWorkspaces(deps.db.sql)) {
    try {
      made.push(...(await decideVariantWinners(deps, s.workspace_id, s.id)));
    } catch (error) {
      deps.log.error({ err: error, sequence_id: s.id }, 'A/B test decision failed; the step keeps testing');
    }
  }
  return made;
}
