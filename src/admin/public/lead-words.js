// Leads as people read them: statuses and stages as badges with words, a lead's name, counts with
// thousands separators, and the address of the leads list for a set of filters.
import { badge, h } from './dom.js';

/** @typedef {'green' | 'gray' | 'indigo' | 'amber' | 'red'} Tone */

/** @type {Record<string, { label: string, tone: Tone }>} */
const STATUSES = {
  active: { label: 'Active', tone: 'green' },
  unsubscribed: { label: 'Unsubscribed', tone: 'gray' },
  bounced: { label: 'Bounced', tone: 'red' },
  do_not_contact: { label: 'Do not contact', tone: 'amber' },
};

/** @type {Record<string, { label: string, tone: Tone }>} */
const STAGES = {
  new: { label: 'New', tone: 'gray' },
  contacted: { label: 'Contacted', tone: 'indigo' },
  replied: { label: 'Replied', tone: 'indigo' },
  interested: { label: 'Interested', tone: 'green' },
  meeting_booked: { label: 'Meeting booked', tone: 'green' },
  won: { label: 'Won', tone: 'green' },
  lost: { label: 'Lost', tone: 'gray' },
  not_interested: { label: 'Not interested', tone: 'amber' },
};

/** @type {Record<string, { label: string, tone: Tone }>} */
const ENROLLMENT_STATUSES = {
  active: { label: 'Active', tone: 'indigo' },
  completed: { label: 'Completed', tone: 'green' },
  stopped: { label: 'Stopped', tone: 'amber' },
  removed: { label: 'Removed', tone: 'gray' },
};

/** @type {Record<string, { label: string, tone: Tone }>} */
const REPLY_KINDS = {
  reply: { label: 'Reply', tone: 'indigo' },
  auto_reply: { label: 'Auto-reply', tone: 'gray' },
  bounce: { label: 'Bounce', tone: 'red' },
  unsubscribe_request: { label: 'Unsubscribe request', tone: 'amber' },
};

/** @param {Record<string, { label: string }>} table */
const choices = (table) => Object.entries(table).map(([value, { label }]) => ({ value, label }));

export const statusChoices = choices(STATUSES);
export const stageChoices = choices(STAGES);

/** @param {Record<string, { label: string, tone: Tone }>} table @param {string} value */
const badgeFrom = (table, value) => {
  const word = table[value] ?? { label: value, tone: /** @type {Tone} */ ('gray') };
  return badge(word.label, word.tone);
};

/** @param {string} status */
export const leadStatusBadge = (status) => badgeFrom(STATUSES, status);
/** @param {string} stage */
export const leadStageBadge = (stage) => badgeFrom(STAGES, stage);
/** @param {string} stage */
export const stageLabel = (stage) => STAGES[stage]?.label ?? stage;
/** @param {string} status */
export const enrollmentStatusBadge = (status) => badgeFrom(ENROLLMENT_STATUSES, status);
/** @param {string} kind */
export const replyKindBadge = (kind) => badgeFrom(REPLY_KINDS, kind);

/** "Ada Lovelace", or null when the lead has no name. @param {{ first_name: string | null, last_name: string | null }} lead */
export function leadName(lead) {
  return [lead.first_name, lead.last_name].filter(Boolean).join(' ') || null;
}

const numberFormat = new Intl.NumberFormat(undefined);
/** "1,234". @param {number} n */
export const count = (n) => numberFormat.format(n);

/** "1 lead", "1,234 leads". @param {number} n @param {string} one @param {string} [many] */
export const plural = (n, one, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

/** A lead's tags as small chips. @param {string[]} tags */
export function tagList(tags) {
  if (!tags.length) return h('span', { class: 'muted', text: '—' });
  return h(
    'ul',
    { class: 'tag-list', 'aria-label': 'Tags' },
    tags.map((t) => h('li', { class: 'tag', text: t })),
  );
}

export const LEADS_PATH = '/admin/leads';

/**
 * The list's filters, as kept in the address.
 * @typedef {{ q: string, status: string, stage: string, tag: string, importId: string }} LeadFilter
 */

/** @param {URLSearchParams} query @returns {LeadFilter} */
export function filterFromQuery(query) {
  return {
    q: query.get('q') ?? '',
    status: query.get('status') ?? '',
    stage: query.get('stage') ?? '',
    tag: query.get('tag') ?? '',
    importId: query.get('import_id') ?? '',
  };
}

/** @param {LeadFilter} filter */
export function leadsUrl(filter) {
  const q = new URLSearchParams();
  if (filter.q) q.set('q', filter.q);
  if (filter.status) q.set('status', filter.status);
  if (filter.stage) q.set('stage', filter.stage);
  if (filter.tag) q.set('tag', filter.tag);
  if (filter.importId) q.set('import_id', filter.importId);
  const s = q.toString();
  return s ? `${LEADS_PATH}?${s}` : LEADS_PATH;
}

/** @param {LeadFilter} filter */
export const isFiltered = (filter) =>
  Boolean(filter.q || filter.status || filter.stage || filter.tag || filter.importId);

/**
 * The filters as list_leads and export_leads take them (a status or stage is one of the list's, comma-joined when several).
 * @param {LeadFilter} filter
 */
export function leadQuery(filter) {
  return {
    ...(filter.q ? { q: filter.q } : {}),
    ...(filter.status ? { status: /** @type {any} */ (filter.status.split(',')) } : {}),
    ...(filter.stage ? { stage: /** @type {any} */ (filter.stage.split(',')) } : {}),
    ...(filter.tag ? { tag: filter.tag } : {}),
    ...(filter.importId ? { import_id: filter.importId } : {}),
  };
}
