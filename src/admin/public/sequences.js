// Sequences: the workspace's sequences, newest first, a page at a time and filtered by status (kept in the
// query string), each with its key rates from one get_outreach_analytics call grouped by sequence. A sequence
// opens its own page (sequence-detail.js), which app.js reaches through this module.
import { newSequenceDialog } from './sequence-authoring.js';
import './sequences.css';
import { ApiProblem } from './api.js';
import { appLink } from './app-link.js';
import { banner, h, icon, mount } from './dom.js';
import { select } from './forms.js';
import { percent, sequenceStatusBadge, sequenceStatusLabel } from './sequence-words.js';
import { emptyState, errorState, loadingState, pageHeader } from './shell.js';

export { sequencePage } from './sequence-detail.js';

const PATH = '/admin/sequences';
const PAGE = 25;
const STATUSES = ['active', 'pending_approval', 'approved', 'paused', 'draft', 'completed', 'archived'];

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 */
export function sequencesPage(main, ctx) {
  document.title = 'Sequences · Agent Platform';
  /** @type {{ status: string, rows: any[], cursor: string | null, figures: Map<string, any> | null, load: number }} */
  const state = {
    status: new URLSearchParams(location.search).get('status') ?? '',
    rows: [],
    cursor: null,
    figures: null,
    load: 0,
  };
  const filter = select(
    { name: 'status', id: 'sequence-status-filter', class: 'input select select-sm' },
    [{ value: '', label: 'All statuses' }, ...STATUSES.map((value) => ({ value, label: sequenceStatusLabel(value) }))],
    state.status,
  );
  filter.addEventListener('change', () => {
    state.status = filter.value;
    history.replaceState(null, '', state.status ? `${PATH}?status=${state.status}` : PATH);
    void load();
  });
  const card = h('section', { class: 'card', 'aria-label': 'Sequences' });
  // Written by hand here; the store's sequence agent (Agent runs → Run an agent) writes one from your knowledge.
  const newButton = h(
    'button',
    {
      type: 'button',
      class: 'btn btn-primary',
      on: {
        click: () =>
          void newSequenceDialog(ctx, { onCreated: (created) => ctx.navigate(`/admin/sequences/${created.id}`) }),
      },
    },
    icon('plus'),
    h('span', { text: 'New sequence' }),
  );
  const description =
    'Each sequence with its status and results so far. Reply rate is over delivered messages, bounce rate over sent; open and click rates show where tracking was on.';
  mount(
    main,
    pageHeader({ title: 'Sequences', description, action: newButton }),
    h(
      'div',
      { class: 'filters', role: 'group', 'aria-label': 'Filters' },
      h('label', { class: 'label', for: filter.id, text: 'Status' }),
      filter,
    ),
    card,
  );

  /** @param {string | null} cursor */
  const listPage = (cursor) =>
    ctx.api.list_email_sequences({
      limit: PAGE,
      cursor: cursor ?? undefined,
      ...(state.status ? { status: /** @type {any} */ ([state.status]) } : {}),
    });

  /** The rates of every sequence at once; the list still shows (without rates) when they cannot be read. */
  const figures = () =>
    ctx.api
      .get_outreach_analytics({ group_by: ['sequence'] })
      .then((a) => new Map(a.groups.map((g) => [g.sequence_id ?? '', /** @type {any} */ (g)])))
      .catch(() => null);

  async function load() {
    const current = ++state.load;
    mount(card, loadingState('Loading sequences…'));
    try {
      const [page, byId] = await Promise.all([listPage(null), state.figures ? state.figures : figures()]);
      if (!ctx.alive() || current !== state.load) return;
      state.figures = byId;
      state.rows = page.data;
      state.cursor = page.has_more ? (page.next_cursor ?? null) : null;
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
    button.textContent = 'Loading…';
    try {
      const page = await listPage(state.cursor);
      if (!ctx.alive() || current !== state.load) return;
      state.rows = [...state.rows, ...page.data];
      state.cursor = page.has_more ? (page.next_cursor ?? null) : null;
      render(null);
    } catch (error) {
      if (ctx.alive() && current === state.load && !(error instanceof ApiProblem && error.status === 401))
        render(error instanceof Error ? error.message : String(error));
    }
  }

  /** @param {string | null} moreError */
  function render(moreError) {
    if (!state.rows.length) {
      mount(
        card,
        state.status
          ? emptyState({ icon: 'chart', title: 'No matching sequences', message: 'No sequence has this status.' })
          : emptyState({
              icon: 'chart',
              title: 'No sequences yet',
              message:
                'No sequences yet: an agent (or the API) writes one, a person approves it in Approvals, and once launched its results show here.',
            }),
      );
      return;
    }
    const head = ['Name', 'Status', 'Enrolled', 'Sent', 'Reply rate', 'Bounce rate', 'Open · click rate'].map((t, i) =>
      h('th', { scope: 'col', class: i > 1 ? 'num' : null, text: t }),
    );
    const more = state.cursor
      ? /** @type {HTMLButtonElement} */ (
          h('button', { type: 'button', class: 'btn btn-secondary btn-sm', text: 'Load more' })
        )
      : null;
    more?.addEventListener('click', () => void loadMore(more));
    const n = state.rows.length;
    mount(
      card,
      state.figures
        ? null
        : h(
            'div',
            { class: 'notices' },
            banner('warning', 'The rates could not be loaded; the list shows without them.'),
          ),
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'table seq-table' },
          h('caption', { class: 'sr-only', text: `Sequences (${n} shown)` }),
          h('thead', null, h('tr', null, head)),
          h(
            'tbody',
            null,
            state.rows.map((s) => row(ctx, s, state.figures?.get(s.id))),
          ),
        ),
      ),
      moreError
        ? h('div', { class: 'error-state' }, banner('error', moreError, { title: 'Could not load more sequences' }))
        : null,
      h(
        'div',
        { class: 'card-footer footer-row' },
        h('span', { text: `${n} ${n === 1 ? 'sequence' : 'sequences'}${state.cursor ? ' shown' : ''}` }),
        more,
      ),
    );
  }

  void load();
}

/** A tracked rate, or "off" when the sequence does not track it. @param {any} s @param {'opens' | 'clicks'} kind @param {number | null | undefined} rate */
function tracked(s, kind, rate) {
  return s.tracking?.[kind] ? percent(rate) : 'off';
}

/** @param {import('./app.js').PageContext} ctx @param {any} s an EmailSequence @param {any} f its OutreachGroup, if it sent */
function row(ctx, s, f) {
  const href = `${PATH}/${encodeURIComponent(s.id)}`;
  const link = appLink(ctx.navigate, href, s.name, 'link seq-name');
  const tr = h(
    'tr',
    { class: 'row-link', dataset: { sequenceId: s.id, status: s.status } },
    h('th', { scope: 'row', class: 'cell-primary' }, link),
    h('td', null, sequenceStatusBadge(s.status)),
    h('td', { class: 'num', text: String(s.stats?.enrolled ?? 0) }),
    h('td', { class: 'num', text: String(f?.sent ?? s.stats?.sent ?? 0) }),
    h('td', { class: 'num', text: percent(f?.reply_rate) }),
    h('td', { class: 'num', text: percent(f?.bounce_rate) }),
    h('td', { class: 'num', text: `${tracked(s, 'opens', f?.open_rate)} · ${tracked(s, 'clicks', f?.click_rate)}` }),
  );
  // The whole row opens the sequence; the name stays the link keyboards and new tabs use.
  tr.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('a')) return;
    ctx.navigate(href);
  });
  return tr;
}
