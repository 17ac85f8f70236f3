// A sequence's steps as written: subject, the start of the body and the wait before each; an A/B-tested step
// lists its variants with their share of the sends, and the winner once auto_select_winner decided one.
import { badge, h } from './dom.js';
import { fullDate } from './format.js';
import { percent, variantLetter } from './sequence-words.js';

const PREVIEW = 280;

/** @param {any} sequence an EmailSequence */
export function stepsCard(sequence) {
  const n = sequence.steps.length;
  return h(
    'section',
    { class: 'card section', 'aria-labelledby': 'steps-title' },
    h(
      'div',
      { class: 'card-header' },
      h(
        'div',
        null,
        h('h2', { id: 'steps-title', class: 'card-title', text: 'Steps' }),
        h('p', { class: 'card-description', text: `${n} ${n === 1 ? 'step' : 'steps'}, ${testSummary(sequence)}` }),
      ),
    ),
    h(
      'ol',
      { class: 'seq-steps' },
      sequence.steps.map((/** @type {any} */ step) => stepItem(sequence, step)),
    ),
  );
}

/** @param {any} sequence */
function testSummary(sequence) {
  const rule = sequence.auto_select_winner;
  if (!sequence.steps.some((/** @type {any} */ s) => s.variants?.length)) return 'no A/B test.';
  if (!rule) return 'variants sent by their weights (no winner is picked).';
  const metric = rule.metric === 'click_rate' ? 'click rate' : 'reply rate';
  return `a winner is picked on ${metric} once each variant has ${rule.min_sends_per_variant} delivered messages, at ${percent(rule.confidence)} confidence.`;
}

/** @param {number} position @param {number} wait */
function waitText(position, wait) {
  if (position === 1) return wait ? `Sent ${wait} ${wait === 1 ? 'day' : 'days'} after enrolment` : 'Sent at enrolment';
  return wait
    ? `${wait} ${wait === 1 ? 'day' : 'days'} after step ${position - 1}`
    : `Right after step ${position - 1}`;
}

/** @param {any} sequence @param {any} step */
function stepItem(sequence, step) {
  const winner = (sequence.variant_winners ?? []).find((/** @type {any} */ w) => w.step === step.position);
  const variants = step.variants ?? [];
  return h(
    'li',
    { class: 'seq-step', dataset: { step: String(step.position) } },
    h(
      'div',
      { class: 'seq-step-head' },
      h('h3', { class: 'seq-step-title', text: `Step ${step.position}` }),
      h('span', { class: 'muted', text: waitText(step.position, step.wait_days) }),
      step.in_thread ? badge('In thread', 'gray') : null,
      variants.length ? badge(`A/B · ${variants.length} variants`, 'indigo') : null,
    ),
    variants.length ? variantList(step, variants, winner) : message(step.subject, step.body),
  );
}

/** @param {string | null} subject @param {string} body */
function message(subject, body) {
  return h(
    'div',
    { class: 'seq-message' },
    h(
      'p',
      { class: 'seq-subject' },
      h('span', { class: 'muted', text: 'Subject: ' }),
      h('strong', { text: subject ?? '(the thread’s subject)' }),
    ),
    h('p', { class: 'seq-body', text: body.length > PREVIEW ? `${body.slice(0, PREVIEW).trimEnd()}…` : body }),
  );
}

/** @param {any} step @param {any[]} variants @param {any} winner */
function variantList(step, variants, winner) {
  const total = variants.reduce((sum, v) => sum + v.weight, 0);
  return h(
    'div',
    null,
    winner
      ? h(
          'p',
          { class: 'seq-winner' },
          badge(`Winner: ${winner.label ?? variantLetter(winner.variant)}`, 'green'),
          h('span', {
            class: 'muted',
            text: ` decided ${winner.decided_at ? fullDate(winner.decided_at) : ''} on ${winner.metric === 'click_rate' ? 'click rate' : 'reply rate'} (p = ${Number(winner.p_value).toPrecision(2)}); the rest of the step gets it.`,
          }),
        )
      : null,
    h(
      'ul',
      { class: 'seq-variants', 'aria-label': `Variants of step ${step.position}` },
      variants.map((v) =>
        h(
          'li',
          {
            class: `seq-variant${winner?.variant === v.variant ? ' is-winner' : ''}`,
            dataset: { variant: v.label },
          },
          h(
            'div',
            { class: 'seq-variant-head' },
            h('strong', { text: `Variant ${v.label}` }),
            h('span', { class: 'muted', text: `weight ${v.weight} (${percent(v.weight / total)} of sends)` }),
            winner?.variant === v.variant ? badge('Winner', 'green') : null,
          ),
          message(v.subject ?? step.subject, v.body),
        ),
      ),
    ),
  );
}
