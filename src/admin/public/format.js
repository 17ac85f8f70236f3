// Dates and names as people read them: absolute dates in the viewer's locale, recent times as "5 minutes ago".
import { h } from './dom.js';

const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const fullFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

const UNITS = /** @type {const} */ ([
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
]);

/** "5 minutes ago", "just now". @param {Date} date @param {Date} [now] */
export function fromNow(date, now = new Date()) {
  const seconds = (date.getTime() - now.getTime()) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return 'just now';
}

/**
 * A <time> element: the date (or a relative time when `relativeTime`), with the full timestamp as its tooltip.
 * @param {string} iso
 * @param {{ relativeTime?: boolean }} [options]
 */
export function timeElement(iso, options = {}) {
  const date = new Date(iso);
  const text = options.relativeTime ? fromNow(date) : dateFormat.format(date);
  return h('time', { datetime: iso, title: fullFormat.format(date), text });
}

/** @param {string} iso */
export function fullDate(iso) {
  return fullFormat.format(new Date(iso));
}

/** Initials for an avatar. @param {string} name @param {string} [email] */
export function initials(name, email = '') {
  const words = (name || email)
    .trim()
    .split(/[\s@._-]+/)
    .filter(Boolean);
  return ((words[0]?.[0] ?? '?') + (words[1]?.[0] ?? '')).toUpperCase();
}

/** @param {'owner' | 'admin' | 'member'} role */
export function roleLabel(role) {
  return role === 'owner' ? 'Owner' : role === 'admin' ? 'Admin' : 'Member';
}
