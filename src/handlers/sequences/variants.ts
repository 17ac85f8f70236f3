// A/B variants of a sequence step (issue 30). Each enrollment gets one variant per step, chosen from the
// enrollment id, the step and the weights alone: a SHA-256 of `${enrollment_id}:${step}` read as a point in
// [0, 1) and placed against the cumulative weights. Nothing random and nothing stored decides it, so the
// same enrollment always lands on the same variant and a retry cannot move it; the message row records it
// when the message is made (and a decided winner replaces the choice from then on).
import { createHash } from 'node:crypto';
import type { SequenceStep, VariantDecision } from './sequences-data.ts';

export const variantLabel = (variant: number) => String.fromCharCode(64 + variant);

/** "Step 2" or "Step 2 variant B": how checks and errors name what they are about. */
export const stepName = (position: number, variant: number | null) =>
  variant === null ? `Step ${position}` : `Step ${position} variant ${variantLabel(variant)}`;

/** A point in [0, 1) that depends only on the enrollment and the step (48 bits: exact in a double). */
export function assignmentPoint(enrollmentId: string, step: number): number {
  return createHash('sha256').update(`${enrollmentId}:${step}`).digest().readUIntBE(0, 6) / 2 ** 48;
}

/** The 1-based variant whose share of [0, 1) holds the enrollment's point for this step. */
export function assignVariant(enrollmentId: string, step: number, weights: readonly number[]): number {
  const total = weights.reduce((sum, w) => sum + w, 0);
  const target = assignmentPoint(enrollmentId, step) * total;
  let cumulative = 0;
  for (let i = 0; i < weights.length; i++) {
    cumulative += weights[i];
    if (target < cumulative) return i + 1;
  }
  return weights.length;
}

interface VariantSource {
  steps: readonly SequenceStep[];
  variant_winners: readonly VariantDecision[];
}

/** The variant a new message of step `position` gets: null for a plain step, the winner once one is decided. */
export function variantForNewMessage(s: VariantSource, enrollmentId: string, position: number): number | null {
  const variants = s.steps[position - 1]?.variants;
  if (!variants?.length) return null;
  const winner = s.variant_winners.find((d) => d.step === position)?.variant;
  // A winner an edit has since removed no longer exists to send: the choice falls back to the weights.
  if (winner !== undefined && winner <= variants.length) return winner;
  return assignVariant(
    enrollmentId,
    position,
    variants.map((v) => v.weight),
  );
}

/**
 * The variant a message goes out with: the one stored on it while its step still has that variant. An edit
 * made while the sequence was paused may have removed it (or all variants): then the choice a new message
 * would get over the step as it is now.
 */
export function variantToSend(s: VariantSource, enrollmentId: string, position: number, stored: number | null) {
  const count = s.steps[position - 1]?.variants?.length ?? 0;
  if (stored !== null && stored >= 1 && stored <= count) return stored;
  return variantForNewMessage(s, enrollmentId, position);
}

/** The subject and body templates of one variant of a step (null: the step's own), subject possibly null. */
export function variantTexts(step: SequenceStep, variant: number | null): { subject: string | null; body: string } {
  const v = variant === null ? undefined : step.variants?.[variant - 1];
  return v ? { subject: v.subject, body: v.body } : { subject: step.subject, body: step.body };
}

/** Every version of a step: its variants, or the step itself as the one version with variant null. */
export function stepVersions(
  step: SequenceStep,
): Array<{ variant: number | null; subject: string | null; body: string }> {
  return step.variants?.length
    ? step.variants.map((v) => ({ variant: v.variant, subject: v.subject, body: v.body }))
    : [{ variant: null, subject: step.subject, body: step.body }];
}

/**
 * What one message is written from. A version without a subject (an in_thread step) answers the thread
 * with "Re: " and the subject the enrollment got in step 1: that is step 1's variant `firstVariant`.
 */
export function messageTemplate(
  steps: readonly SequenceStep[],
  step: SequenceStep,
  variant: number | null,
  firstVariant: number | null,
): { subject: string; body: string } {
  const texts = variantTexts(step, variant);
  const first = steps[0] ? variantTexts(steps[0], firstVariant).subject : null;
  return { subject: texts.subject ?? `Re: ${first ?? ''}`, body: texts.body };
}

/** Every subject and body template any enrollment could be sent: what an enrolled lead must have values for. */
export function allTemplates(steps: readonly SequenceStep[]): string[] {
  return steps.flatMap((step) => stepVersions(step).flatMap((v) => [v.subject ?? '', v.body]));
}
