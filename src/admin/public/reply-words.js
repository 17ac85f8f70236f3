// What leads sent back, and the replies written to them, as people read them: classifications and statuses as
// badges, and the approval link of a reply that waits for a person.
import { badge, h } from './dom.js';

/** @typedef {'green' | 'gray' | 'indigo' | 'amber' | 'red'} Tone */

/** The contract's ReplyClassification, in the order people look for them. @type {Record<string, { label: string, tone: Tone }>} */
const CLASSIFICATIONS = {
  reply: { label: 'Reply', tone: 'indigo' },
  auto_reply: { label: 'Out of office', tone: 'gray' },
  unsubscribe_request: { label: 'Unsubscribe request', tone: 'amber' },
  bounce: { label: 'Bounce', tone: 'red' },
};

export const classificationChoices = Object.entries(CLASSIFICATIONS).map(([value, c]) => ({
  value,
  label: c.label,
}));

/** @param {string | null} classification */
export function classificationBadge(classification) {
  const c = CLASSIFICATIONS[classification ?? ''] ?? { label: classification ?? 'Unknown', tone: 'gray' };
  return badge(c.label, c.tone);
}

/** What an inbound message did to the lead's sequence. @type {Record<string, string>} */
const EFFECTS = {
  stopped: 'Stopped the sequence',
  paused: 'Paused the sequence',
  suppressed: 'Address suppressed',
};

/** @param {string | null} effect */
export function effectText(effect) {
  return effect ? (EFFECTS[effect] ?? null) : null;
}

/** @type {Record<string, { label: string, tone: Tone }>} */
const REPLY_STATUSES = {
  pending_approval: { label: 'Pending approval', tone: 'amber' },
  rejected: { label: 'Rejected', tone: 'gray' },
  sending: { label: 'Sending', tone: 'indigo' },
  sent: { label: 'Sent', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  uncertain: { label: 'Uncertain', tone: 'amber' },
};

/** A reply written to a lead: its status. @param {string | null} status */
export function replyStatusBadge(status) {
  const s = REPLY_STATUSES[status ?? ''] ?? { label: status ?? 'Unknown', tone: 'gray' };
  return badge(s.label, s.tone);
}

/** Where a person approves or rejects a reply that waits (the page the reply's approval_url opens). @param {string} replyId */
export const approvalHref = (replyId) => `/admin/approvals?reply=${encodeURIComponent(replyId)}`;

/** The link to a reply's approval. @param {string} replyId @param {string} text */
export function approvalLink(replyId, text = 'Review it in Approvals') {
  return h('a', { class: 'link', href: approvalHref(replyId), text });
}

/** A person's name and address, or the address alone. @param {any} lead */
export function leadLabel(lead) {
  const name = [lead.first_name, lead.last_name].filter(Boolean).join(' ');
  return name ? `${name} <${lead.email}>` : lead.email;
}
