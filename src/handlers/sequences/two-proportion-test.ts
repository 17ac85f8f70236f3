// The statistics behind auto_select_winner: a pooled two-proportion z-test with a two-sided p-value. Pure,
// so its numbers can be checked against published values.

/**
 * The complementary error function for x ≥ 0, by the Chebyshev fit of Numerical Recipes' `erfcc` (fractional
 * error below 1.2e-7 everywhere): a relative bound, so a small p-value keeps its digits.
 */
function erfc(x: number): number {
  const t = 1 / (1 + 0.5 * x);
  const poly =
    -1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t *
                  (-0.18628806 +
                    t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  return t * Math.exp(-x * x + poly);
}

/** Φ(z), the standard normal cumulative distribution: ½·erfc(−z/√2). */
export function normalCdf(z: number): number {
  const tail = 0.5 * erfc(Math.abs(z) / Math.SQRT2);
  return z >= 0 ? 1 - tail : tail;
}

export interface Proportion {
  successes: number;
  trials: number;
}

/**
 * Whether two success rates differ: z of a − b under the pooled rate, and the two-sided p-value. Equal
 * rates, or a pooled rate of 0 or 1 (nothing to tell apart), give z 0 and p 1.
 */
export function twoProportionTest(a: Proportion, b: Proportion): { z: number; pValue: number } {
  if (a.trials <= 0 || b.trials <= 0) return { z: 0, pValue: 1 };
  const pooled = (a.successes + b.successes) / (a.trials + b.trials);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.trials + 1 / b.trials));
  const diff = a.successes / a.trials - b.successes / b.trials;
  if (se === 0 || diff === 0) return { z: 0, pValue: 1 };
  const z = diff / se;
  // Two-sided: P(|Z| ≥ |z|) = erfc(|z|/√2).
  return { z, pValue: Math.min(1, erfc(Math.abs(z) / Math.SQRT2)) };
}
