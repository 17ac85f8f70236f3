// Outreach → Leads → a lead: its fields, its stage (and the control to set it), the sequences it is
// enrolled in, the messages sent to it and what it sent back. Unsubscribing and deleting each ask first;
// a deleted lead's address stays on the suppression list, so the page says so.
import './leads.css';
import { ApiProblem } from './api.js';
import { confirmDialog } from './dialogs.js';
import { banner, h, mount } from './dom.js';
import { fullDate, timeElement } from './format.js';
import { leadActivity } from './lead-activity.js';
import { stageCard } from './lead-stage.js';
import { leadName, leadStatusBadge, LEADS_PATH, tagList } from './lead-words.js';
import { emptyState, errorState, loadingState, pageHeader } from './shell.js';

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 */
export function leadPage(main, ctx) {
  document.title = 'Lead · Outreach · Agent Platform';
  const leadId = ctx.params.id;
  void load();

  async function load() {
    mount(main, backLink(), loadingState('Loading the lead…'));
    try {
      const lead = await ctx.api.get_lead({ lead_id: leadId });
      if (!ctx.alive()) return;
      show(lead, null);
    } catch (error) {
      if (!ctx.alive() || (error instanceof ApiProblem && error.status === 401)) return;
      if (error instanceof ApiProblem && error.status === 404) {
        mount(
          main,
          backLink(),
          emptyState({
            icon: 'users',
            title: 'Lead not found',
            message: 'It may have been deleted, or it belongs to another workspace.',
          }),
        );
        return;
      }
      mount(
        main,
        backLink(),
        errorState(error instanceof Error ? error.message : String(error), () => void load()),
      );
    }
  }

  /** @param {any} lead @param {{ kind: 'success' | 'error', message: string } | null} notice */
  function show(lead, notice) {
    const name = leadName(lead);
    document.title = `${name ?? lead.email} · Leads · Agent Platform`;
    const notices = h('div', { class: 'notices' });
    if (notice) mount(notices, banner(notice.kind, notice.message, { onDismiss: () => mount(notices) }));
    const unsubscribe = h('button', {
      type: 'button',
      class: 'btn btn-secondary',
      text: 'Unsubscribe',
      disabled: lead.status !== 'active',
      title: lead.status === 'active' ? null : 'Only an active lead can be unsubscribed.',
      on: { click: () => void confirmUnsubscribe(lead) },
    });
    const remove = h('button', {
      type: 'button',
      class: 'btn btn-danger',
      text: 'Delete',
      on: { click: () => void confirmDelete(lead) },
    });
    const description = [lead.email, lead.title, lead.company].filter(Boolean).join(' · ');
    const activity = leadActivity(ctx, lead.id);
    mount(
      main,
      backLink(),
      pageHeader({
        title: name ?? lead.email,
        description,
        action: h('div', { class: 'row-actions' }, unsubscribe, remove),
      }),
      notices,
      h('div', { class: 'lead-grid' }, fieldsCard(lead), stageCard(ctx, lead, show)),
      activity.element,
    );
  }

  /** @param {any} lead */
  async function confirmUnsubscribe(lead) {
    /** @type {any} */
    let updated = null;
    const done = await confirmDialog({
      title: 'Unsubscribe this lead?',
      message: [
        h('strong', { text: lead.email }),
        ' will not be emailed again: every sequence stops for it, and no import brings the address back.',
      ],
      confirmLabel: 'Unsubscribe',
      busyLabel: 'Unsubscribing…',
      action: async () => {
        updated = await ctx.api.unsubscribe_lead({ lead_id: lead.id, idempotency_key: crypto.randomUUID() });
      },
    });
    if (done && updated && ctx.alive()) show(updated, { kind: 'success', message: `${lead.email} is unsubscribed.` });
  }

  /** @param {any} lead */
  async function confirmDelete(lead) {
    const done = await confirmDialog({
      title: 'Delete this lead?',
      message: [
        'The personal data of ',
        h('strong', { text: lead.email }),
        ' is erased. A hash of the address stays on the suppression list, so it is never emailed again. This cannot be undone.',
      ],
      confirmLabel: 'Delete lead',
      busyLabel: 'Deleting…',
      action: () => ctx.api.delete_lead({ lead_id: lead.id }),
    });
    if (!done || !ctx.alive()) return;
    document.title = 'Lead deleted · Leads · Agent Platform';
    mount(
      main,
      backLink(),
      pageHeader({ title: 'Lead deleted', description: lead.email }),
      banner(
        'success',
        'The lead was deleted. Its address stays on the suppression list, so it is never emailed again.',
      ),
    );
    const title = main.querySelector('h1');
    if (title instanceof HTMLElement) title.focus();
  }

  function backLink() {
    const link = h('a', { class: 'back-link', href: LEADS_PATH, text: '← Leads' });
    link.addEventListener('click', (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      ctx.navigate(LEADS_PATH);
    });
    return link;
  }
}

/** @param {any} lead */
function fieldsCard(lead) {
  const custom = Object.entries(lead.custom_fields ?? {});
  /** @type {Array<[string, Node | string | null]>} */
  const rows = [
    ['Email', lead.email],
    ['Name', leadName(lead)],
    ['Company', lead.company],
    ['Title', lead.title],
    ['Phone', lead.phone],
    ['Website', lead.website],
    ['LinkedIn', lead.linkedin_url],
    ['Time zone', lead.timezone],
    ['Status', leadStatusBadge(lead.status)],
    ['Tags', tagList(lead.tags)],
    ...custom.map(
      ([key, value]) =>
        /** @type {[string, string]} */ ([key, typeof value === 'string' ? value : JSON.stringify(value)]),
    ),
    ['Import', lead.source_import_id ? importLink(lead.source_import_id) : null],
    ['Created', h('time', { datetime: lead.created_at, text: fullDate(lead.created_at) })],
    ['Updated', timeElement(lead.updated_at, { relativeTime: true })],
  ];
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'fields-title' },
    h('div', { class: 'card-header' }, h('h2', { class: 'card-title', id: 'fields-title', text: 'Details' })),
    h(
      'dl',
      { class: 'details lead-fields' },
      rows.flatMap(([label, value]) => [
        h('dt', { text: label }),
        h('dd', null, value === null || value === '' ? h('span', { class: 'muted', text: '—' }) : value),
      ]),
    ),
  );
}

/** @param {string} importId */
function importLink(importId) {
  return h(
    'a',
    { class: 'link', href: `${LEADS_PATH}?import_id=${encodeURIComponent(importId)}` },
    h('code', { text: importId }),
  );
}
