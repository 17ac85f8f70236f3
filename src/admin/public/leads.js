// Outreach → Leads: the workspace's leads, newest first, searched and filtered by status, stage, tag and
// import, a page at a time by cursor. The filters live in the query string, so a filtered list can be shared
// and survives a reload. Importing a CSV file (lead-import.js) and exporting the list (lead-export.js) start
// here; a lead's own page is lead-detail.js (the router imports both pages from this module).
import './leads.css';
import { ApiProblem } from './api.js';
import { banner, h, mount } from './dom.js';
import { timeElement } from './format.js';
import { leadExport } from './lead-export.js';
import { leadFilters } from './lead-filters.js';
import { leadImport } from './lead-import.js';
import {
  filterFromQuery,
  isFiltered,
  leadName,
  leadQuery,
  leadStageBadge,
  leadStatusBadge,
  leadsUrl,
  plural,
  tagList,
} from './lead-words.js';
import { emptyState, errorState, loadingState, pageHeader } from './shell.js';

export { leadPage } from './lead-detail.js';

const PAGE = 50;

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 */
export function leadsPage(main, ctx) {
  document.title = 'Leads · Outreach · Agent Platform';
  /** @type {{ filter: import('./lead-words.js').LeadFilter, leads: any[], cursor: string | null, load: number }} */
  const state = { filter: filterFromQuery(new URLSearchParams(location.search)), leads: [], cursor: null, load: 0 };
  const imports = leadImport(ctx, {
    onImported: () => void load(),
    showImport: (importId) => applyFilter({ ...blankFilter(), importId }),
  });
  const exports = leadExport(ctx, () => state.filter);
  const description =
    'The people sequences write to. Import a CSV file with a header row (email, first_name, last_name, company, …); an address that unsubscribed or bounced is never emailed again.';
  const actions = h('div', { class: 'row-actions leads-actions' }, exports.button, imports.button);
  const filterBar = h('div', { class: 'filters leads-filters', role: 'search', 'aria-label': 'Filter leads' });
  const card = h('section', { class: 'card', 'aria-label': 'Leads' });
  mount(
    main,
    pageHeader({ title: 'Leads', description, action: actions }),
    imports.card,
    exports.card,
    filterBar,
    card,
  );
  renderFilters();
  void load();

  /** @param {import('./lead-words.js').LeadFilter} filter */
  function applyFilter(filter) {
    state.filter = filter;
    history.replaceState(null, '', leadsUrl(filter));
    renderFilters();
    void load();
  }

  function renderFilters() {
    mount(filterBar, ...leadFilters(state.filter, applyFilter));
  }

  /** Reads the first page for the current filters; a slower answer for earlier filters is dropped. */
  async function load() {
    const current = ++state.load;
    mount(card, loadingState('Loading leads…'));
    try {
      const page = await ctx.api.list_leads({ ...leadQuery(state.filter), limit: PAGE });
      if (!ctx.alive() || current !== state.load) return;
      state.leads = page.data;
      state.cursor = page.has_more ? page.next_cursor : null;
      render(null);
    } catch (error) {
      if (ctx.alive() && current === state.load && !(error instanceof ApiProblem && error.status === 401))
        mount(
          card,
          errorState(error instanceof Error ? error.message : String(error), () => void load()),
        );
    }
  }

  /** @param {HTMLButtonElement} button */
  async function loadMore(button) {
    const current = state.load;
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    button.textContent = 'Loading…';
    try {
      const page = await ctx.api.list_leads({
        ...leadQuery(state.filter),
        limit: PAGE,
        cursor: state.cursor ?? undefined,
      });
      if (!ctx.alive() || current !== state.load) return;
      state.leads = [...state.leads, ...page.data];
      state.cursor = page.has_more ? page.next_cursor : null;
      render(null);
    } catch (error) {
      if (ctx.alive() && current === state.load && !(error instanceof ApiProblem && error.status === 401))
        render(error instanceof Error ? error.message : String(error));
    }
  }

  /** @param {string | null} moreError why the last "Load more" failed */
  function render(moreError) {
    if (!state.leads.length) {
      mount(card, emptyList());
      return;
    }
    const head = ['Name', 'Company', 'Status', 'Stage', 'Tags', 'Created'].map((t) =>
      h('th', { scope: 'col', text: t }),
    );
    const table = h(
      'table',
      { class: 'table leads-table' },
      h('caption', { class: 'sr-only', text: `Leads (${state.leads.length} shown)` }),
      h('thead', null, h('tr', null, head)),
      h('tbody', null, state.leads.map(leadRow)),
    );
    const more = state.cursor
      ? /** @type {HTMLButtonElement} */ (
          h('button', { type: 'button', class: 'btn btn-secondary btn-sm', text: 'Load more' })
        )
      : null;
    more?.addEventListener('click', () => void loadMore(more));
    const footer = h(
      'div',
      { class: 'card-footer footer-row' },
      h('span', { text: `${plural(state.leads.length, 'lead')}${state.cursor ? ' shown' : ''}` }),
      more,
    );
    mount(
      card,
      h('div', { class: 'table-wrap' }, table),
      moreError
        ? h('div', { class: 'error-state' }, banner('error', moreError, { title: 'Could not load more leads' }))
        : null,
      footer,
    );
  }

  function emptyList() {
    if (isFiltered(state.filter))
      return emptyState({
        icon: 'users',
        title: 'No matching leads',
        message: 'No lead matches these filters.',
        action: h('button', {
          type: 'button',
          class: 'btn btn-secondary',
          text: 'Clear the filters',
          on: { click: () => applyFilter(blankFilter()) },
        }),
      });
    return emptyState({
      icon: 'users',
      title: 'No leads yet',
      message:
        'Import a CSV file with a header row — email is the one column it needs; first_name, last_name, company, title and tags are read too.',
      action: h('button', {
        type: 'button',
        class: 'btn btn-primary',
        text: 'Import a CSV file',
        on: { click: imports.choose },
      }),
    });
  }

  /** @param {any} lead */
  function leadRow(lead) {
    const href = `/admin/leads/${encodeURIComponent(lead.id)}`;
    const name = leadName(lead);
    const link = h('a', { class: 'lead-link', href, text: name ?? lead.email });
    link.addEventListener('click', (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      ctx.navigate(href);
    });
    const row = h(
      'tr',
      { class: 'lead-row', dataset: { leadId: lead.id, status: lead.status, stage: lead.stage } },
      h(
        'th',
        { scope: 'row', class: 'cell-primary' },
        h('span', { class: 'cell-title' }, link),
        name ? h('span', { class: 'cell-sub', text: lead.email }) : null,
      ),
      h('td', { text: lead.company ?? '—' }),
      h('td', null, leadStatusBadge(lead.status)),
      h('td', null, leadStageBadge(lead.stage)),
      h('td', null, tagList(lead.tags)),
      h('td', { class: 'nowrap' }, timeElement(lead.created_at)),
    );
    // The whole row opens the lead for a pointer; the link in it is what the keyboard reaches.
    row.addEventListener('click', (event) => {
      if (event.target instanceof Element && event.target.closest('a')) return;
      if (window.getSelection()?.toString()) return;
      ctx.navigate(href);
    });
    return row;
  }
}

/** @returns {import('./lead-words.js').LeadFilter} */
function blankFilter() {
  return { q: '', status: '', stage: '', tag: '', importId: '' };
}
