// A sequence's results as charts, from get_sequence_analytics: sent, replied and bounced per day (in the
// sequence's time zone, from its first day with a send), and its rates per step and per A/B variant.
import { ApiProblem } from './api.js';
import { chart } from './charts.js';
import { h, mount } from './dom.js';
import { emptyState, errorState, loadingState } from './shell.js';
import { percent, variantLetter } from './sequence-words.js';

/**
 * The analytics card; loads on its own so the rest of the page does not wait for it.
 * @param {import('./app.js').PageContext} ctx
 * @param {any} sequence an EmailSequence
 */
export function analyticsCard(ctx, sequence) {
  const body = h('div', { class: 'card-body' });
  const card = h(
    'section',
    { class: 'card section', 'aria-labelledby': 'analytics-title' },
    h(
      'div',
      { class: 'card-header' },
      h(
        'div',
        null,
        h('h2', { id: 'analytics-title', class: 'card-title', text: 'Results' }),
        h('p', {
          class: 'card-description',
          text: 'Replies and bounces count against the step and variant they answered. Reply rate is over delivered messages, bounce rate over sent.',
        }),
      ),
    ),
    body,
  );
  const load = async () => {
    mount(body, loadingState('Loading results…'));
    try {
      const timezone = sequence.schedule?.timezone ?? 'UTC';
      const ask = (/** @type {any} */ group_by) =>
        ctx.api.get_sequence_analytics({ sequence_id: sequence.id, group_by, timezone });
      const [days, steps, variants] = await Promise.all([ask(['day']), ask(['step']), ask(['step', 'variant'])]);
      if (!ctx.alive()) return;
      mount(body, ...charts(sequence, { days, steps, variants }));
    } catch (error) {
      if (ctx.alive() && !(error instanceof ApiProblem && error.status === 401))
        mount(
          body,
          errorState(error instanceof Error ? error.message : String(error), () => void load()),
        );
    }
  };
  void load();
  return card;
}

/**
 * @param {any} sequence
 * @param {{ days: any, steps: any, variants: any }} a
 * @returns {Array<HTMLElement | null>}
 */
function charts(sequence, a) {
  if (!a.steps.totals.sent)
    return [
      emptyState({
        icon: 'chart',
        title: 'No sends yet',
        message: 'No sends yet — the charts fill in once the sequence sends.',
      }),
    ];
  const tracked = {
    opens: a.steps.groups.some((/** @type {any} */ g) => g.open_rate !== null),
    clicks: a.steps.groups.some((/** @type {any} */ g) => g.click_rate !== null),
  };
  const variantGroups = a.variants.groups.filter((/** @type {any} */ g) => g.variant !== null);
  return [
    totalsList(a.steps.totals, tracked),
    h(
      'div',
      { class: 'chart-grid' },
      dayChart(a.days),
      rateChart({
        title: 'Rates per step',
        categoryLabel: 'Step',
        groups: a.steps.groups,
        label: (g) => `Step ${g.step}`,
        tracked,
      }),
      variantGroups.length
        ? rateChart({
            title: 'Rates per variant',
            categoryLabel: 'Variant',
            groups: variantGroups,
            label: (g) => `Step ${g.step} · ${variantLetter(g.variant)}`,
            tracked,
          })
        : null,
    ),
    sequence.steps.some((/** @type {any} */ s) => s.variants?.length)
      ? null
      : h('p', { class: 'muted chart-note', text: 'No step of this sequence tests variants.' }),
  ];
}

/** @param {any} totals @param {{ opens: boolean, clicks: boolean }} tracked */
function totalsList(totals, tracked) {
  const items = [
    ['Sent', String(totals.sent)],
    ['Delivered', String(totals.delivered)],
    ['Replied', String(totals.replied)],
    ['Bounced', String(totals.bounced)],
    ['Reply rate', percent(totals.reply_rate)],
    ['Bounce rate', percent(totals.bounce_rate)],
    tracked.opens ? ['Open rate', percent(totals.open_rate)] : null,
    tracked.clicks ? ['Click rate', percent(totals.click_rate)] : null,
  ].filter((x) => x !== null);
  return h(
    'dl',
    { class: 'stat-list', 'aria-label': 'Totals' },
    items.map(([term, value]) => h('div', { class: 'stat' }, h('dt', { text: term }), h('dd', { text: value }))),
  );
}

/** Every day from the first with a send to the last counted, days without sends as zeros. @param {any} a */
function dayChart(a) {
  const byDay = new Map(a.groups.map((/** @type {any} */ g) => [g.day, g]));
  const first = a.groups[0]?.day ?? a.to;
  const days = [];
  for (let d = first; d <= a.to && days.length < 400; d = nextDay(d)) days.push(d);
  const count = (/** @type {string} */ field) => days.map((d) => /** @type {any} */ (byDay.get(d))?.[field] ?? 0);
  return chart({
    title: 'Sent, replied and bounced per day',
    description: `Days in ${a.timezone}.`,
    kind: 'line',
    categoryLabel: 'Day',
    categories: days.map(dayLabel),
    series: [
      { label: 'Sent', values: count('sent') },
      { label: 'Replied', values: count('replied') },
      { label: 'Bounced', values: count('bounced') },
    ],
    yFormat: (v) => (Number.isInteger(v) ? String(v) : ''),
  });
}

/**
 * Grouped bars of the rates; open and click rates only where the sequence tracked them.
 * @param {{ title: string, categoryLabel: string, groups: any[], label: (g: any) => string, tracked: { opens: boolean, clicks: boolean } }} o
 */
function rateChart(o) {
  const rate = (/** @type {string} */ field) => o.groups.map((g) => g[field]);
  const series = [
    { label: 'Sent', values: rate('sent'), plot: false },
    { label: 'Reply rate', values: rate('reply_rate'), format: percent },
    { label: 'Bounce rate', values: rate('bounce_rate'), format: percent },
    o.tracked.opens ? { label: 'Open rate', values: rate('open_rate'), format: percent } : null,
    o.tracked.clicks ? { label: 'Click rate', values: rate('click_rate'), format: percent } : null,
  ].filter((s) => s !== null);
  return chart({
    title: o.title,
    kind: 'bars',
    categoryLabel: o.categoryLabel,
    categories: o.groups.map(o.label),
    series,
    yFormat: (v) => `${Math.round(v * 100)}%`,
    yMax: 0.1,
  });
}

/** @param {string} day YYYY-MM-DD */
function nextDay(day) {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** "24 Nov" in the viewer's language; the day is a calendar day, not an instant. @param {string} day */
export function dayLabel(day) {
  return dayFormat.format(new Date(`${day}T00:00:00Z`));
}
