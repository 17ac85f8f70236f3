// The pure parts of A/B variants: the deterministic assignment, the two-proportion test against published
// values, and the verdict on a step's outcomes.
import { describe, expect, it } from 'vitest';
import { createIds } from '../../../src/ids.ts';
import { assignVariant, messageTemplate, variantForNewMessage } from '../../../src/handlers/sequences/variants.ts';
import { normalCdf, twoProportionTest } from '../../../src/handlers/sequences/two-proportion-test.ts';
import { judgeVariants, type VariantOutcome } from '../../../src/handlers/sequences/variant-verdict.ts';
import type { AutoSelectWinner, SequenceStep } from '../../../src/handlers/sequences/sequences-data.ts';

const ids = createIds({ now: () => new Date('2026-11-24T10:00:00Z') });
const enrollmentIds = Array.from({ length: 10_000 }, () => ids.make('enr'));

const variantStep = (position: number, weights: number[], subjects: Array<string | null> = []): SequenceStep => ({
  position,
  wait_days: 0,
  subject: subjects[0] ?? `S${position}A`,
  body: 'A',
  in_thread: position > 1,
  variants: weights.map((weight, i) => ({
    variant: i + 1,
    label: String.fromCharCode(65 + i),
    subject: subjects[i] === undefined ? `S${position}${String.fromCharCode(65 + i)}` : subjects[i],
    body: String.fromCharCode(65 + i),
    weight,
  })),
});

describe('assignVariant', () => {
  it.each([
    ['1,1', [1, 1]],
    ['1,3', [1, 3]],
    ['2,3,5', [2, 3, 5]],
  ])('gives 10,000 enrollments each variant within 2 points of its weight %s', (_name, weights) => {
    const counts = new Array(weights.length).fill(0);
    for (const id of enrollmentIds) counts[assignVariant(id, 2, weights) - 1] += 1;
    const total = weights.reduce((a, b) => a + b, 0);
    counts.forEach((n, i) => {
      expect(Math.abs(n / enrollmentIds.length - weights[i] / total), `variant ${i + 1}: ${n}`).toBeLessThan(0.02);
    });
  });

  // Computed apart (Python's hashlib): the first 48 bits of SHA-256("<id>:<step>") against the cumulative
  // weights. A change here would move enrolled leads to other variants.
  it.each([
    ['enr_01jd8x6y5k2r3t4v5w6x7y8z9a', [2, 1, 2]],
    ['enr_01jd8x6y5k2r3t4v5w6x7y8z9c', [3, 1, 2]],
    ['enr_01jd8x6y5k2r3t4v5w6x7y8z9d', [2, 1, 2]],
  ])('gives %s the variants the published rule gives it', (id, want) => {
    expect([assignVariant(id, 1, [2, 3, 5]), assignVariant(id, 2, [1, 1]), assignVariant(id, 3, [1, 3])]).toEqual(want);
  });

  it('chooses for each step on its own', () => {
    const same = enrollmentIds.filter((id) => assignVariant(id, 1, [1, 1]) === assignVariant(id, 2, [1, 1])).length;
    expect(Math.abs(same / enrollmentIds.length - 0.5)).toBeLessThan(0.02);
  });
});

describe('variantForNewMessage', () => {
  const steps = [variantStep(1, [1, 1]), { ...variantStep(2, [1, 1, 1]) }];
  it('is null for a plain step and the decided winner once there is one', () => {
    const plain = {
      steps: [{ position: 1, wait_days: 0, subject: 'Hi', body: 'B', in_thread: false }],
      variant_winners: [],
    };
    expect(variantForNewMessage(plain, enrollmentIds[0], 1)).toBeNull();
    const winners = [
      {
        step: 2,
        variant: 3,
        label: 'C',
        metric: 'reply_rate' as const,
        p_value: 0.01,
        confidence: 0.95,
        decided_at: '2026-11-24T10:00:00.000Z',
        variants: [],
      },
    ];
    for (const id of enrollmentIds.slice(0, 50)) {
      expect(variantForNewMessage({ steps, variant_winners: winners }, id, 2)).toBe(3);
      expect(variantForNewMessage({ steps, variant_winners: winners }, id, 1)).toBe(assignVariant(id, 1, [1, 1]));
    }
  });
});

describe('messageTemplate', () => {
  it('answers a subject-less version in the thread with the step-1 variant the enrollment got', () => {
    const steps = [variantStep(1, [1, 1]), variantStep(2, [1, 1], ['Own', null])];
    expect(messageTemplate(steps, steps[1], 2, 2)).toEqual({ subject: 'Re: S1B', body: 'B' });
    expect(messageTemplate(steps, steps[1], 1, 2)).toEqual({ subject: 'Own', body: 'A' });
    expect(messageTemplate(steps, steps[1], 2, null)).toEqual({ subject: 'Re: S1A', body: 'B' });
  });
});

describe('normalCdf', () => {
  it.each([
    [0, 0.5],
    [0.5, 0.6914624612740131],
    [1, 0.8413447460685429],
    [-1, 0.15865525393145707],
    [1.644854, 0.9500000384745869],
    [1.959964, 0.9750000009035575],
    [2.575829, 0.9949999956107591],
    [3, 0.9986501019683699],
  ])('gives Φ(%f) = %f to 1e-7', (z, want) => {
    expect(Math.abs(normalCdf(z) - want)).toBeLessThan(1e-7);
  });

  it('keeps the digits of a far tail', () => {
    expect(Math.abs(normalCdf(-5) / 2.866515718791939e-7 - 1)).toBeLessThan(1.2e-7);
  });
});

describe('twoProportionTest', () => {
  // Reference values: pooled z and 2·Q(|z|) computed with erfc.
  it.each([
    ['80/500 vs 50/500', [80, 500, 50, 500], 2.820914688837224, 0.004788693590031618],
    ['30/100 vs 15/100', [30, 100, 15, 100], 2.5400025400038095, 0.011085166380602722],
    ['12/100 vs 10/100', [12, 100, 10, 100], 0.45198461470556844, 0.6512800661041753],
    ['150/1000 vs 200/1000', [150, 1000, 200, 1000], -2.9424494316825, 0.0032562696284120633],
  ])('gives z and the two-sided p-value of %s', (_name, [s1, n1, s2, n2], z, p) => {
    const got = twoProportionTest({ successes: s1, trials: n1 }, { successes: s2, trials: n2 });
    expect(got.z).toBeCloseTo(z, 9);
    expect(Math.abs(got.pValue - p) / p).toBeLessThan(1.2e-7);
  });

  it('gives p 1 when the rates are equal or nothing succeeded', () => {
    expect(twoProportionTest({ successes: 10, trials: 100 }, { successes: 20, trials: 200 }).pValue).toBe(1);
    expect(twoProportionTest({ successes: 0, trials: 100 }, { successes: 0, trials: 100 }).pValue).toBe(1);
  });
});

describe('judgeVariants', () => {
  const rule: AutoSelectWinner = { metric: 'reply_rate', min_sends_per_variant: 100, confidence: 0.95 };
  const now = new Date('2026-11-24T10:00:00Z');
  const outcomes = (...rows: Array<[number, number]>): VariantOutcome[] =>
    rows.map(([delivered, successes], i) => ({ variant: i + 1, delivered, successes }));

  it.each<[string, { step: SequenceStep; given: VariantOutcome[]; want: string }]>([
    [
      'keeps testing while a variant is below the minimum',
      { step: variantStep(1, [1, 1]), given: outcomes([500, 80], [99, 0]), want: 'too_few' },
    ],
    [
      'keeps testing when a variant has no messages yet',
      { step: variantStep(1, [1, 1]), given: outcomes([500, 80]), want: 'too_few' },
    ],
    [
      'keeps testing without significance',
      { step: variantStep(1, [1, 1]), given: outcomes([100, 12], [100, 10]), want: 'not_significant' },
    ],
    [
      'keeps testing on a tie',
      { step: variantStep(1, [1, 1]), given: outcomes([200, 20], [200, 20]), want: 'not_significant' },
    ],
    [
      'picks the best when it beats the runner-up',
      { step: variantStep(1, [1, 1]), given: outcomes([500, 50], [500, 80]), want: 'winner' },
    ],
    [
      'compares the best with the runner-up, not the worst',
      { step: variantStep(1, [1, 1, 1]), given: outcomes([500, 10], [500, 80], [500, 70]), want: 'not_significant' },
    ],
  ])('%s', (_name, { step, given, want }) => {
    expect(judgeVariants(step, given, rule, now).kind).toBe(want);
  });

  it('records the winner with its numbers and p-value', () => {
    const verdict = judgeVariants(variantStep(2, [1, 1]), outcomes([500, 50], [500, 80]), rule, now);
    expect(verdict).toEqual({
      kind: 'winner',
      decision: {
        step: 2,
        variant: 2,
        label: 'B',
        metric: 'reply_rate',
        p_value: expect.closeTo(0.004788693590031618, 8),
        confidence: 0.95,
        decided_at: '2026-11-24T10:00:00.000Z',
        variants: [
          { variant: 1, delivered: 500, successes: 50, rate: 0.1 },
          { variant: 2, delivered: 500, successes: 80, rate: 0.16 },
        ],
      },
    });
  });

  it('asks for more confidence when told to', () => {
    // p ≈ 0.011: significant at 0.95, not at 0.99.
    const given = outcomes([100, 30], [100, 15]);
    expect(judgeVariants(variantStep(1, [1, 1]), given, rule, now).kind).toBe('winner');
    expect(judgeVariants(variantStep(1, [1, 1]), given, { ...rule, confidence: 0.99 }, now).kind).toBe(
      'not_significant',
    );
  });
});
