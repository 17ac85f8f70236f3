// Whether an A/B test of one step is decided: every variant has its minimum of delivered messages, and the
// best variant's rate differs from the runner-up's at the asked confidence. Pure: counts in, verdict out.
import type { AutoSelectWinner, SequenceStep, VariantDecision } from './sequences-data.ts';
import { twoProportionTest } from './two-proportion-test.ts';
import { variantLabel } from './variants.ts';

/** A variant's delivered messages and how many of them succeeded on the test's metric. */
export interface VariantOutcome {
  variant: number;
  delivered: number;
  successes: number;
}

export type Verdict =
  | { kind: 'winner'; decision: VariantDecision }
  /** Some variant has fewer delivered messages than the minimum: keep sending all of them. */
  | { kind: 'too_few'; variant: number; delivered: number }
  /** Enough messages, no significant difference (yet): keep testing. */
  | { kind: 'not_significant'; pValue: number };

export function judgeVariants(
  step: SequenceStep,
  outcomes: readonly VariantOutcome[],
  rule: AutoSelectWinner,
  now: Date,
): Verdict {
  const counted = (step.variants ?? []).map((v) => {
    const o = outcomes.find((x) => x.variant === v.variant);
    const delivered = o?.delivered ?? 0;
    const successes = o?.successes ?? 0;
    return { variant: v.variant, delivered, successes, rate: delivered ? successes / delivered : 0 };
  });
  const short = counted.find((c) => c.delivered < rule.min_sends_per_variant);
  if (short) return { kind: 'too_few', variant: short.variant, delivered: short.delivered };
  // Best first; a tie goes to the earlier variant, and a tie between the top two is never significant.
  const [best, runnerUp] = [...counted].sort((a, b) => b.rate - a.rate || a.variant - b.variant);
  if (!best || !runnerUp) return { kind: 'not_significant', pValue: 1 };
  const { pValue } = twoProportionTest(
    { successes: best.successes, trials: best.delivered },
    { successes: runnerUp.successes, trials: runnerUp.delivered },
  );
  if (!(pValue < 1 - rule.confidence)) return { kind: 'not_significant', pValue };
  return {
    kind: 'winner',
    decision: {
      step: step.position,
      variant: best.variant,
      label: variantLabel(best.variant),
      metric: rule.metric,
      p_value: pValue,
      confidence: rule.confidence,
      decided_at: now.toISOString(),
      variants: counted,
    },
  };
}
