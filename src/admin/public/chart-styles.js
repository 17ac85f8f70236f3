// How each chart series looks, so colour is never the only difference: a dash pattern and point shape for lines,
// a fill pattern for bars, and the legend that shows the same pattern beside each series' name (built with h()).
import uPlot from 'uplot';
import { h, uniqueId } from './dom.js';

/** Colour, line dash, point and bar fill per series, in order; colour is never the only difference. */
export const STYLES = [
  { color: '#4f46e5', dash: /** @type {number[]} */ ([]), point: 'disc', fill: 'solid' },
  { color: '#067647', dash: [8, 4], point: 'ring', fill: 'stripes' },
  { color: '#d92d20', dash: [2, 3], point: 'square', fill: 'dots' },
  { color: '#b54708', dash: [10, 3, 2, 3], point: 'disc', fill: 'cross' },
];

/** @type {Map<string, CanvasPattern | string>} */
const fills = new Map();

/** A canvas pattern matching the legend's swatch. @param {typeof STYLES[number]} style */
export function barFill(style) {
  const key = `${style.color}/${style.fill}`;
  const known = fills.get(key);
  if (known) return known;
  const tile = document.createElement('canvas');
  const ratio = uPlot.pxRatio;
  tile.width = tile.height = Math.round(8 * ratio);
  const g = tile.getContext('2d');
  if (!g) return style.color;
  g.scale(ratio, ratio);
  g.fillStyle = style.fill === 'solid' ? style.color : `${style.color}33`;
  g.fillRect(0, 0, 8, 8);
  g.strokeStyle = g.fillStyle = style.color;
  g.lineWidth = 1.5;
  if (style.fill === 'stripes' || style.fill === 'cross') {
    g.beginPath();
    g.moveTo(0, 8);
    g.lineTo(8, 0);
    g.moveTo(-2, 2);
    g.lineTo(2, -2);
    g.moveTo(6, 10);
    g.lineTo(10, 6);
    if (style.fill === 'cross') {
      g.moveTo(0, 0);
      g.lineTo(8, 8);
    }
    g.stroke();
  } else if (style.fill === 'dots') {
    g.beginPath();
    g.arc(4, 4, 1.6, 0, Math.PI * 2);
    g.fill();
  }
  const pattern = g.createPattern(tile, 'repeat') ?? style.color;
  fills.set(key, pattern);
  return pattern;
}

/** @param {'line' | 'bars'} kind @param {Array<{ label: string }>} plotted */
export function legend(kind, plotted) {
  return h(
    'ul',
    { class: 'chart-legend', 'aria-label': 'Legend' },
    plotted.map((s, i) =>
      h('li', { class: 'chart-key' }, swatch(kind, STYLES[i % STYLES.length]), h('span', { text: s.label })),
    ),
  );
}

const NS = 'http://www.w3.org/2000/svg';

/** @param {string} tag @param {Record<string, string | number>} attrs @param {...SVGElement} children */
function svg(tag, attrs, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/** The series' look in small: its dash and point, or its bar fill. @param {'line' | 'bars'} kind @param {typeof STYLES[number]} style */
function swatch(kind, style) {
  const root = svg('svg', {
    viewBox: '0 0 32 14',
    width: 32,
    height: 14,
    class: 'chart-swatch',
    'aria-hidden': 'true',
  });
  if (kind === 'line') {
    root.append(
      svg('line', {
        x1: 1,
        y1: 7,
        x2: 31,
        y2: 7,
        stroke: style.color,
        'stroke-width': 2,
        'stroke-dasharray': style.dash.join(' ') || 'none',
      }),
      style.point === 'square'
        ? svg('rect', { x: 12, y: 3, width: 8, height: 8, fill: style.color })
        : svg('circle', {
            cx: 16,
            cy: 7,
            r: 3.5,
            fill: style.point === 'ring' ? '#fff' : style.color,
            stroke: style.color,
            'stroke-width': 2,
          }),
    );
    return root;
  }
  const id = uniqueId('fill');
  const tile = svg('pattern', { id, width: 8, height: 8, patternUnits: 'userSpaceOnUse' });
  tile.append(
    svg('rect', { width: 8, height: 8, fill: style.color, 'fill-opacity': style.fill === 'solid' ? 1 : 0.2 }),
  );
  if (style.fill === 'stripes' || style.fill === 'cross')
    tile.append(
      svg('path', {
        d: `M0 8L8 0M-2 2L2 -2M6 10L10 6${style.fill === 'cross' ? 'M0 0L8 8' : ''}`,
        stroke: style.color,
        'stroke-width': 1.5,
      }),
    );
  if (style.fill === 'dots') tile.append(svg('circle', { cx: 4, cy: 4, r: 1.6, fill: style.color }));
  root.append(
    svg('defs', {}, tile),
    svg('rect', { x: 4, y: 1, width: 24, height: 12, fill: `url(#${id})`, stroke: style.color }),
  );
  return root;
}
