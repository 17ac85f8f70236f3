// Sequences and their messages as people read them: statuses as badges, the sending window in words,
// and what `uncertain` means said wherever it shows.
import { badge, h } from './dom.js';

/** @typedef {'green' | 'gray' | 'indigo' | 'amber' | 'red'} Tone */

/** @type {Record<string, { label: string, tone: Tone }>} */
const SEQUENCE_STATUSES = {
  draft: { label: 'Draft', tone: 'gray' },
  pending_approval: { label: 'Pending approval', tone: 'amber' },
  approved: { label: 'Approved', tone: 'green' },
  active: { label: 'Active', tone: 'indigo' },
  paused: { label: 'Paused', tone: 'amber' },
  completed: { label: 'Completed', tone: 'gray' },
  archived: { label: 'Archived', tone: 'gray' },
};

/** @type {Record<string, { label: string, tone: Tone }>} */
const MESSAGE_STATUSES = {
  scheduled: { label: 'Scheduled', tone: 'gray' },
  sending: { label: 'Sending', tone: 'indigo' },
  sent: { label: 'Sent', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  cancelled: { label: 'Cancelled', tone: 'gray' },
  uncertain: { label: 'Uncertain', tone: 'amber' },
};

/** The filter choices of the sent-messages page, in the order people look for them. */
export const messageStatusChoices = ['sent', 'scheduled', 'failed', 'uncertain', 'cancelled'].map((value) => ({
  value,
  label: MESSAGE_STATUSES[value].label,
}));

export const UNCERTAIN_TEXT =
  'May have been delivered; never retried. The service stopped between handing it to the mail provider and recording the answer, and a duplicate cold email is worse than a missing one.';

/** @param {string} status */
export function sequenceStatusBadge(status) {
  const s = SEQUENCE_STATUSES[status] ?? { label: status, tone: 'gray' };
  return badge(s.label, s.tone);
}

/** @param {string} status */
export function sequenceStatusLabel(status) {
  return SEQUENCE_STATUSES[status]?.label ?? status;
}

/** A message's status, with the meaning of `uncertain` next to it (and as its tooltip). @param {string} status */
export function messageStatusCell(status) {
  const s = MESSAGE_STATUSES[status] ?? { label: status, tone: 'gray' };
  if (status !== 'uncertain') return badge(s.label, s.tone);
  const marked = h('span', { class: 'status-uncertain', title: UNCERTAIN_TEXT }, badge(s.label, s.tone));
  return [marked, h('span', { class: 'cell-sub', text: 'May have been delivered; never retried.' })];
}

const DAYS = /** @type {const} */ (['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);
const DAY_NAMES = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };

/** "Mon–Fri, 09:00–17:00 (Europe/Paris)". @param {{ timezone: string, days: string[], start_hour: number, end_hour: number }} schedule */
export function scheduleText(schedule) {
  const on = DAYS.filter((d) => schedule.days.includes(d));
  const days =
    on.length === 7
      ? 'Every day'
      : isRun(on) && on.length > 2
        ? `${DAY_NAMES[on[0]]}–${DAY_NAMES[on[on.length - 1]]}`
        : on.map((d) => DAY_NAMES[d]).join(', ');
  const hours =
    schedule.start_hour === 0 && schedule.end_hour === 24
      ? 'any time'
      : `${hour(schedule.start_hour)}–${hour(schedule.end_hour)}`;
  return `${days}, ${hours} (${schedule.timezone})`;
}

/** @param {readonly string[]} days */
function isRun(days) {
  const first = DAYS.indexOf(/** @type {any} */ (days[0]));
  return days.every((d, i) => DAYS[first + i] === d);
}

/** @param {number} n */
const hour = (n) => `${String(n).padStart(2, '0')}:00`;

/** A rate (0–1) as "12.5%"; null (nothing to count it over) as "—". @param {number | null | undefined} rate */
export function percent(rate) {
  if (rate === null || rate === undefined) return '—';
  return `${Math.round(rate * 1000) / 10}%`;
}

/** A variant's letter: 1 → A. @param {number} variant */
export function variantLetter(variant) {
  return String.fromCharCode(64 + variant);
}
