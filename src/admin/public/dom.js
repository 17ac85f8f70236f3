// Small DOM helpers. Everything is built with createElement and textContent: the page has no
// HTML-string sinks, which the Content-Security-Policy (Trusted Types) enforces.

/**
 * Creates an element. `props`: `class`, `text`, `on` (event handlers), `dataset`, boolean and value
 * properties (`hidden`, `disabled`, `required`, `readOnly`, `value`, `checked`, `selected`), and any other
 * key as an attribute (null/false skip it).
 * @param {string} tag
 * @param {Record<string, any> | null} [props]
 * @param {...(Node | string | null | undefined | false | Array<Node | string | null | undefined | false>)} children
 * @returns {HTMLElement}
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = value;
    else if (key === 'on') for (const [type, fn] of Object.entries(value)) el.addEventListener(type, fn);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (PROPS.has(key)) /** @type {any} */ (el)[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

const PROPS = new Set(['hidden', 'disabled', 'required', 'readOnly', 'value', 'checked', 'selected', 'tabIndex']);

/** @param {Element} el @param {any[]} children */
function append(el, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Replaces an element's children. @param {Element} el @param {...any} children */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

let uid = 0;
/** A unique id for label/aria wiring. @param {string} prefix */
export function uniqueId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}

const ICONS = {
  key: 'M15 7a2 2 0 1 1 0 4 2 2 0 0 1 0-4Zm-6 6 3.5-3.5M3 21v-3l7.5-7.5A6 6 0 1 1 15 15l-1 1h-2v2h-2v2H7l-1 1H3Z',
  users:
    'M16 19v-1a4 4 0 0 0-4-4H7a4 4 0 0 0-4 4v1M9.5 10a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7ZM21 19v-1a4 4 0 0 0-3-3.9M15.5 3.1a3.5 3.5 0 0 1 0 6.8',
  lock: 'M6 11h12v10H6zM8 11V7a4 4 0 0 1 8 0v4',
  copy: 'M9 9h11v11H9zM5 15H4V4h11v1',
  check: 'M5 12.5 10 17l9-10',
  alert: 'M12 8v5m0 3.5v.5M10.3 3.9 2.4 18a2 2 0 0 0 1.7 3h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z',
  info: 'M12 11v6m0-9.5v.5M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20Z',
  plus: 'M12 5v14M5 12h14',
  logout: 'M15 17l5-5-5-5M20 12H9M12 21H5a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h7',
  x: 'M6 6l12 12M18 6 6 18',
  mail: 'M3 5h18v14H3zM3 6l9 7 9-7',
  plug: 'M12 22v-5M9 8V2M15 8V2M18 8v5a4 4 0 0 1-4 4h-4a4 4 0 0 1-4-4V8Z',
  refresh: 'M21 12a9 9 0 1 1-9-9c2.52 0 4.93 1 6.74 2.74L21 8M21 3v5h-5',
  external: 'M15 3h6v6M10 14 21 3M18 13v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h6',
  send: 'M22 2 11 13M22 2l-7 20-4-9-9-4 20-7Z',
  list: 'M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01',
  book: 'M4 19.5A2.5 2.5 0 0 1 6.5 17H20V3H6.5A2.5 2.5 0 0 0 4 5.5v14ZM4 19.5A2.5 2.5 0 0 0 6.5 22H20v-5',
  chart: 'M3 3v18h18M7 15l4-4 3 3 5-6',
  inbox:
    'M22 12h-6l-2 3h-4l-2-3H2M5.45 5.11 2 12v6a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-6l-3.45-6.89A2 2 0 0 0 16.76 4H7.24a2 2 0 0 0-1.79 1.11Z',
  bot: 'M12 8V4H8M4 8h16v12H4zM2 14h2M20 14h2M9 13v2M15 13v2',
  settings:
    'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1Z',
  webhook:
    'M18 16.98h-5.99c-1.1 0-1.95.94-2.48 1.9A4 4 0 0 1 2 17c.01-.7.2-1.4.57-2M6 17l3.13-5.78c.53-.97.1-2.18-.5-3.1a4 4 0 1 1 6.89-4.06M12 6l3.13 5.73C15.66 12.7 16.9 13 18 13a4 4 0 0 1 0 8',
  activity: 'M22 12h-4l-3 9L9 3l-3 9H2',
};

/**
 * An inline SVG icon, hidden from assistive technology.
 * @param {keyof typeof ICONS} name
 */
export function icon(name, className = 'icon') {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', className);
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const path = document.createElementNS(NS, 'path');
  path.setAttribute('d', ICONS[name]);
  svg.append(path);
  return svg;
}

/**
 * A banner: `error` is an alert (announced at once), the others are polite status messages.
 * @param {'error' | 'success' | 'info' | 'warning'} kind
 * @param {string} message
 * @param {{ title?: string, onDismiss?: () => void }} [options]
 */
export function banner(kind, message, options = {}) {
  const iconName = kind === 'success' ? 'check' : kind === 'info' ? 'info' : 'alert';
  const close = options.onDismiss
    ? h(
        'button',
        { type: 'button', class: 'banner-close', 'aria-label': 'Dismiss message', on: { click: options.onDismiss } },
        icon('x'),
      )
    : null;
  return h(
    'div',
    { class: `banner banner-${kind}`, role: kind === 'error' ? 'alert' : 'status' },
    icon(iconName, 'icon banner-icon'),
    h(
      'div',
      { class: 'banner-body' },
      options.title ? h('strong', { class: 'banner-title', text: options.title }) : null,
      h('span', { text: message }),
    ),
    close,
  );
}

/** @param {string} text @param {'green' | 'gray' | 'indigo' | 'amber' | 'red'} tone */
export function badge(text, tone) {
  return h('span', { class: `badge badge-${tone}` }, h('span', { class: 'badge-dot', 'aria-hidden': 'true' }), text);
}

/** Visually hidden text for screen readers. @param {string} text */
export function srOnly(text) {
  return h('span', { class: 'sr-only', text });
}
