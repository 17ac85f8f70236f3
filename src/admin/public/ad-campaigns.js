// Ads → Campaigns: the workspace's ad campaigns, newest first, and one campaign as the ads platform
// reports it: its status, the reason Meta gave for a disapproval (or why it waits), its budget in the
// currency's own format (stored as integer minor units), and its delivery. Sandbox campaigns say so:
// nothing was created at Meta and nothing is delivered.
import { ApiProblem } from './api.js';
import { badge, banner, h, mount } from './dom.js';
import { timeElement } from './format.js';
import { emptyState, errorState, loadingState, pageHeader } from './shell.js';

const PATH = '/admin/ad-campaigns';
const STATUS = /** @type {Record<string, { label: string, tone: 'gray' | 'amber' | 'green' | 'red' | 'indigo' }>} */ ({
  draft: { label: 'Draft', tone: 'gray' },
  launching: { label: 'Launching', tone: 'indigo' },
  pending_review: { label: 'In review', tone: 'amber' },
  active: { label: 'Active', tone: 'green' },
  disapproved: { label: 'Disapproved', tone: 'red' },
  paused: { label: 'Paused', tone: 'gray' },
  completed: { label: 'Completed', tone: 'gray' },
  archived: { label: 'Archived', tone: 'gray' },
});
const REASONS = /** @type {Record<string, string>} */ ({
  needs_reconnection: 'The ads account must be connected again (Settings → Connectors); then resume the campaign.',
  rate_limited: 'Meta asked us to slow down; the service tries again shortly.',
  paused_by_user: 'Paused on request.',
});

/** @param {string} status */
const statusBadge = (status) => badge(STATUS[status]?.label ?? status, STATUS[status]?.tone ?? 'gray');
/** @param {{ amount_minor: number, currency: string }} money */
function money(money) {
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency: money.currency }).resolvedOptions()
      .maximumFractionDigits ?? 2;
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: money.currency }).format(
    money.amount_minor / 10 ** digits,
  );
}
/** @param {any} c */
const modeBadge = (c) => (c.mode === 'sandbox' ? badge('Sandbox', 'indigo') : badge('Live', 'green'));

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 */
export function adCampaignsPage(main, ctx) {
  const selected = new URLSearchParams(location.search).get('campaign');
  document.title = 'Campaigns · Ads · Agent Platform';
  const card = h('section', { class: 'card', 'aria-label': selected ? 'Campaign' : 'Ad campaigns' });
  const description = selected
    ? 'The campaign as Meta reports it, synced every few minutes.'
    : 'Ad campaigns, newest first. Open one to see its review status and delivery.';
  mount(
    main,
    pageHeader({
      title: selected ? 'Campaign' : 'Ad campaigns',
      description,
      action: selected ? h('a', { class: 'btn btn-secondary', href: PATH, text: 'All campaigns' }) : null,
    }),
    card,
  );
  void (selected ? showCampaign(selected) : showList());

  async function showList() {
    mount(card, loadingState('Loading campaigns…'));
    try {
      const page = await ctx.api.list_ad_campaigns({ limit: 100 });
      if (!ctx.alive()) return;
      if (!page.data.length)
        return mount(
          card,
          emptyState({
            icon: 'send',
            title: 'No campaigns yet',
            message: 'Ask your agent to create one with create_ad_campaign.',
          }),
        );
      const rows = page.data.map((/** @type {any} */ c) =>
        h(
          'tr',
          null,
          h(
            'th',
            { scope: 'row' },
            h('a', { class: 'link', href: `${PATH}?campaign=${encodeURIComponent(c.id)}`, text: c.name }),
          ),
          h('td', null, statusBadge(c.status), ' ', modeBadge(c)),
          h('td', { text: money(c.daily_budget) }),
        ),
      );
      const table = h(
        'table',
        { class: 'table' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', { scope: 'col', text: 'Campaign' }),
            h('th', { scope: 'col', text: 'Status' }),
            h('th', { scope: 'col', text: 'Daily budget' }),
          ),
        ),
        h('tbody', null, rows),
      );
      mount(card, h('div', { class: 'table-wrap' }, table));
    } catch (error) {
      failed(error, showList);
    }
  }

  /** @param {string} id */
  async function showCampaign(id) {
    mount(card, loadingState('Loading the campaign…'));
    try {
      const campaign = await ctx.api.get_ad_campaign({ campaign_id: id });
      if (!ctx.alive()) return;
      mount(card, campaignDetails(campaign));
    } catch (error) {
      failed(error, () => void showCampaign(id));
    }
  }

  /** @param {unknown} error @param {() => void} retry */
  function failed(error, retry) {
    if (!ctx.alive() || (error instanceof ApiProblem && error.status === 401)) return;
    mount(card, errorState(error instanceof Error ? error.message : String(error), retry));
  }
}

/** @param {any} c */
function campaignDetails(c) {
  const notices = [];
  if (c.mode === 'sandbox')
    notices.push(
      banner(
        'info',
        'Sandbox: nothing was created at Meta and no ads are delivered, so spend, impressions and clicks stay at zero.',
      ),
    );
  if (c.status === 'disapproved')
    notices.push(banner('error', `Disapproved by Meta: ${c.status_reason ?? 'no reason was given'}`));
  else if (c.status_reason && REASONS[c.status_reason]) notices.push(banner('warning', REASONS[c.status_reason]));
  const row = (/** @type {string} */ label, /** @type {any} */ value) => [
    h('dt', { text: label }),
    h('dd', null, value),
  ];
  const facts = h(
    'dl',
    { class: 'details', 'aria-label': 'Campaign details' },
    ...row('Status', [statusBadge(c.status), ' ', modeBadge(c)]),
    ...row('Meta status', c.effective_status ?? '—'),
    ...row('Daily budget', money(c.daily_budget)),
    ...row('Spend', money({ amount_minor: c.delivery.spend_minor, currency: c.daily_budget.currency })),
    ...row('Impressions', String(c.delivery.impressions)),
    ...row('Clicks', String(c.delivery.clicks)),
    ...row('Last synced', c.delivery.synced_at ? timeElement(c.delivery.synced_at) : 'not yet'),
    ...row('Ad account', c.ad_account_id ?? '—'),
  );
  return h(
    'div',
    null,
    h('div', { class: 'card-header' }, h('h2', { class: 'card-title', text: c.name })),
    ...notices,
    facts,
  );
}
