// Charts on uPlot (bundled, nothing from a CDN), readable without colour: each series has its own dash pattern
// and point shape (lines) or fill pattern (bars), shown in a legend built with h(), and every chart has its numbers
// in a real table under it. Charts follow their container's width (ResizeObserver). uPlot draws on a canvas and
// sets only element.style, which the CSP allows; its own legend is off, so no markup of ours goes through it.
import uPlot from 'uplot';
import { barFill, legend, STYLES } from './chart-styles.js';
import { h, uniqueId } from './dom.js';

/**
 * @typedef {{
 *   label: string,
 *   values: Array<number | null>,
 *   format?: (value: number | null) => string,
 *   plot?: boolean,
 * }} ChartSeries a series; `plot: false` puts it in the numbers table only (a count beside plotted rates)
 * @typedef {{
 *   title: string,
 *   kind: 'line' | 'bars',
 *   categories: string[],
 *   categoryLabel: string,
 *   series: ChartSeries[],
 *   yFormat?: (value: number) => string,
 *   yMax?: number,
 *   description?: string,
 * }} ChartOptions
 */

const HEIGHT = 240;

/**
 * A figure: title, legend, the chart, and "Show the numbers" with its table.
 * @param {ChartOptions} options
 * @returns {HTMLElement}
 */
export function chart(options) {
  const plotted = options.series.filter((s) => s.plot !== false);
  const titleId = uniqueId('chart-title');
  const plot = h('div', { class: 'chart-plot', role: 'img', 'aria-label': plotSummary(options, plotted) });
  const figure = h(
    'figure',
    { class: 'chart', 'aria-labelledby': titleId, dataset: { chart: options.kind } },
    h(
      'figcaption',
      { class: 'chart-caption' },
      h('h3', { class: 'chart-title', id: titleId, text: options.title }),
      options.description ? h('p', { class: 'chart-description', text: options.description }) : null,
    ),
    legend(options.kind, plotted),
    plot,
    numbersTable(options),
  );
  drawWhenSized(plot, (width) => new uPlot(plotOptions(options, plotted, width), chartData(options, plotted), plot));
  return figure;
}

/** @param {ChartOptions} options @param {ChartSeries[]} plotted */
function plotSummary(options, plotted) {
  return `${options.title}: ${plotted.map((s) => s.label).join(', ')} by ${options.categoryLabel.toLowerCase()}. The numbers are in the table below.`;
}

/**
 * Creates the chart once its container has a width, then keeps it that width; stops when the chart leaves the page.
 * @param {HTMLElement} container
 * @param {(width: number) => uPlot} create
 */
function drawWhenSized(container, create) {
  /** @type {uPlot | null} */
  let plot = null;
  const observer = new ResizeObserver(() => {
    if (!container.isConnected) {
      observer.disconnect();
      plot?.destroy();
      return;
    }
    const width = Math.floor(container.clientWidth);
    if (width <= 0) return;
    if (!plot) plot = create(width);
    else if (plot.width !== width) plot.setSize({ width, height: HEIGHT });
  });
  observer.observe(container);
}

/** @param {ChartOptions} options @param {ChartSeries[]} plotted @returns {uPlot.AlignedData} */
function chartData(options, plotted) {
  const xs = options.categories.map((_, i) => i);
  return [xs, ...plotted.map((s) => s.values.map((v) => (v === null ? null : v)))];
}

/** @param {ChartOptions} options @param {ChartSeries[]} plotted @param {number} width @returns {uPlot.Options} */
function plotOptions(options, plotted, width) {
  const n = options.categories.length;
  const yFormat = options.yFormat ?? ((/** @type {number} */ v) => String(v));
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    cursor: { show: false },
    scales: {
      x: { time: false, range: () => [-0.5, Math.max(n - 0.5, 0.5)] },
      y: { range: (_u, _min, max) => [0, Math.max(options.yMax ?? 0, niceMax(max))] },
    },
    axes: [
      {
        stroke: '#667085',
        grid: { show: false },
        ticks: { show: false },
        splits: () => options.categories.map((_, i) => i),
        values: (_u, splits) => splits.map((i) => tickLabel(options.categories, i, width)),
      },
      {
        stroke: '#667085',
        grid: { stroke: '#e4e7ec', width: 1 },
        ticks: { show: false },
        size: 56,
        values: (_u, splits) => splits.map((v) => yFormat(v)),
      },
    ],
    series: [
      {},
      ...plotted.map((s, i) => (options.kind === 'bars' ? barSeries(s, i, plotted.length) : lineSeries(s, i))),
    ],
  };
}

/** Thins the category labels so they do not overlap on a narrow chart. @param {string[]} labels @param {number} i @param {number} width */
function tickLabel(labels, i, width) {
  const every = Math.max(1, Math.ceil((labels.length * 64) / Math.max(width - 60, 1)));
  return i % every === 0 ? (labels[i] ?? '') : '';
}

/** @param {number} max */
function niceMax(max) {
  if (!(max > 0)) return 1;
  const step = 10 ** Math.floor(Math.log10(max));
  return Math.ceil((max * 1.1) / step) * step;
}

/** @param {ChartSeries} s @param {number} i @returns {uPlot.Series} */
function lineSeries(s, i) {
  const style = STYLES[i % STYLES.length];
  return {
    label: s.label,
    stroke: style.color,
    width: 2,
    dash: style.dash,
    spanGaps: false,
    points: {
      show: true,
      size: style.point === 'square' ? 8 : 9,
      width: 2,
      stroke: style.color,
      fill: style.point === 'ring' ? '#ffffff' : style.color,
      ...(style.point === 'square' ? { paths: squarePoints } : {}),
    },
  };
}

/** Square markers (uPlot draws circles by default). @type {uPlot.Series.Points.PathBuilder} */
function squarePoints(u, seriesIdx, idx0, idx1) {
  const size = 8 * uPlot.pxRatio;
  const fill = new Path2D();
  const xs = u.data[0];
  const ys = u.data[seriesIdx];
  for (let i = idx0; i <= idx1; i++) {
    const y = ys[i];
    if (y === null || y === undefined) continue;
    const cx = u.valToPos(xs[i], 'x', true);
    const cy = u.valToPos(y, 'y', true);
    fill.rect(cx - size / 2, cy - size / 2, size, size);
  }
  return { stroke: fill, fill };
}

/** One bar of each series per category, side by side. @param {ChartSeries} s @param {number} i @param {number} count @returns {uPlot.Series} */
function barSeries(s, i, count) {
  const style = STYLES[i % STYLES.length];
  const group = 0.8;
  const size = group / count;
  return {
    label: s.label,
    stroke: style.color,
    width: 1.5,
    fill: () => barFill(style),
    paths: uPlot.paths.bars?.({
      disp: {
        x0: { unit: 1, values: (u) => Array.from(u.data[0], (x) => x - group / 2 + i * size) },
        size: { unit: 1, values: (u) => Array.from(u.data[0], () => size * 0.9) },
      },
    }),
    points: { show: false },
  };
}

/** "Show the numbers": the chart's data as a table, every series (plotted or not) a column. @param {ChartOptions} options */
function numbersTable(options) {
  const format = (/** @type {ChartSeries} */ s, /** @type {number | null} */ v) =>
    s.format ? s.format(v) : v === null ? '—' : String(v);
  const table = h(
    'table',
    { class: 'table chart-table' },
    h('caption', { class: 'sr-only', text: options.title }),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', { scope: 'col', text: options.categoryLabel }),
        options.series.map((s) => h('th', { scope: 'col', class: 'num', text: s.label })),
      ),
    ),
    h(
      'tbody',
      null,
      options.categories.map((category, i) =>
        h(
          'tr',
          null,
          h('th', { scope: 'row', text: category }),
          options.series.map((s) => h('td', { class: 'num', text: format(s, s.values[i] ?? null) })),
        ),
      ),
    ),
  );
  return h(
    'details',
    { class: 'chart-numbers' },
    h('summary', { text: 'Show the numbers' }),
    h('div', { class: 'table-wrap' }, table),
  );
}
