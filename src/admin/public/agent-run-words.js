// Agent runs as people read them: statuses as badges, step names in words, what a run made as links to the
// pages that show it, and what a waiting run needs from a person with the link to act.
import { badge, h } from './dom.js';
import { inPage } from './long-poll.js';

/** @typedef {'green' | 'gray' | 'indigo' | 'amber' | 'red'} Tone */

/** The contract's AgentRunStatus. @type {Record<string, { label: string, tone: Tone }>} */
const RUN_STATUSES = {
  queued: { label: 'Queued', tone: 'gray' },
  running: { label: 'Running', tone: 'indigo' },
  requires_action: { label: 'Waiting for you', tone: 'amber' },
  succeeded: { label: 'Succeeded', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  cancelled: { label: 'Cancelled', tone: 'gray' },
};

/** @type {Record<string, { label: string, tone: Tone }>} */
const STEP_STATUSES = {
  pending: { label: 'Pending', tone: 'gray' },
  running: { label: 'Running', tone: 'indigo' },
  waiting: { label: 'Waiting', tone: 'amber' },
  succeeded: { label: 'Done', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  skipped: { label: 'Skipped', tone: 'gray' },
  cancelled: { label: 'Cancelled', tone: 'gray' },
};

export const runStatusChoices = Object.entries(RUN_STATUSES).map(([value, s]) => ({ value, label: s.label }));

/** A run that can still be stopped: cancel_agent_run refuses a finished one. @param {string} status */
export const cancellable = (status) => status === 'queued' || status === 'running' || status === 'requires_action';

export const finished = (/** @type {string} */ status) => !cancellable(status);

/** @param {string} status */
export function runStatusBadge(status) {
  const s = RUN_STATUSES[status] ?? { label: status, tone: 'gray' };
  return badge(s.label, s.tone);
}

/** @param {string} status */
export function stepStatusBadge(status) {
  const s = STEP_STATUSES[status] ?? { label: status, tone: 'gray' };
  return badge(s.label, s.tone);
}

/** "connect_sender" → "Connect sender". @param {string} name */
export function stepName(name) {
  const words = name.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "3 of 6". @param {any[] | undefined} steps */
export function stepsDone(steps) {
  if (!steps?.length) return '—';
  const done = steps.filter((s) => s.status === 'succeeded' || s.status === 'skipped').length;
  return `${done} of ${steps.length}`;
}

/** Where the panel shows a resource a run made. @type {Record<string, { label: string, href: (id: string) => string }>} */
const RESOURCE_PAGES = {
  email_sequence: { label: 'Email sequence', href: (id) => `/admin/sequences/${encodeURIComponent(id)}` },
  connector: { label: 'Connector', href: () => '/admin/connectors' },
  blog_post: { label: 'Blog post', href: () => '/admin/blog-posts' },
  ad_campaign: { label: 'Ad campaign', href: () => '/admin/ad-campaigns' },
};

/** @param {{ type: string, id: string }} ref @param {(path: string) => void} navigate */
export function resourceLink(ref, navigate) {
  const page = RESOURCE_PAGES[ref.type];
  if (!page) return h('span', null, `${ref.type} `, h('code', { text: ref.id }));
  return panelLink(page.href(ref.id), `${page.label} ${ref.id}`, navigate);
}

/**
 * The links a person follows to give what a waiting run needs: the approval (and the sequence itself), or the
 * connector's consent page.
 * @param {any} action the run's required_action
 * @param {(path: string) => void} navigate
 */
export function actionLinks(action, navigate) {
  if (action.type === 'sequence_approval')
    return [
      panelLink(action.url, 'Review it in Approvals', navigate, 'btn btn-primary btn-sm'),
      action.resource?.id
        ? panelLink(`/admin/sequences/${encodeURIComponent(action.resource.id)}`, 'Open the sequence', navigate)
        : null,
    ];
  return [
    h('a', {
      class: 'btn btn-primary btn-sm',
      href: action.url,
      target: '_blank',
      rel: 'noopener',
      text: 'Allow access',
    }),
    panelLink('/admin/connectors', 'Connectors', navigate),
  ];
}

/** What a person is asked to do, in the panel's words (the API's message is written for the agent). @param {any} action */
export function actionRequest(action) {
  if (action.type === 'sequence_approval')
    return 'The agent drafted a sequence and submitted it: review the rendered emails, then approve or reject them. The run goes on by itself once you decide.';
  if (action.type === 'connector_authorization')
    return 'The agent needs a Gmail mailbox to send from: allow access, and the run goes on by itself.';
  return action.message;
}

/** What the run waits for, in one line. @param {any} action */
export function actionSummary(action) {
  if (action.type === 'sequence_approval') return 'A person’s approval of the sequence it drafted';
  if (action.type === 'connector_authorization') return 'A person to connect the mailbox';
  return action.message ?? action.type;
}

/**
 * A link into the panel (an absolute URL of this service becomes its path), followed without reloading.
 * @param {string} url @param {string} text @param {(path: string) => void} navigate @param {string} [className]
 */
function panelLink(url, text, navigate, className = 'link') {
  const target = new URL(url, location.origin);
  const local = target.origin === location.origin && target.pathname.startsWith('/admin/');
  const href = local ? `${target.pathname}${target.search}` : target.href;
  return h('a', { class: className, href, text, on: local ? { click: inPage(() => navigate(href)) } : null });
}
