// The reply inbox of the Replies page: the kind filter (kept in the address) and the table of what leads sent
// back, newest first, a page at a time, each row with its lead, sequence, kind, words and time.
import { ApiProblem } from './api.js';
import { h, mount, srOnly } from './dom.js';
import { timeElement } from './format.js';
import { select } from './forms.js';
import { inPage } from './long-poll.js';
import { classificationBadge, classificationChoices, effectText } from './reply-words.js';
import { emptyState, errorState, loadingState, mountPagedTable, pageHeader } from './shell.js';

const PATH = '/admin/replies';
const SNIPPET = 140;

/**
 * The inbox: the filter and the table, a page at a time.
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 * @param {{
 *   sequenceNames: () => Promise<Map<string, string>>,
 *   leadOf: (id: string) => Promise<any>,
 *   open: (query: string | null, how?: { replace?: boolean }) => void,
 * }} options
 */
export function inbox(main, ctx, options) {
  document.title = 'Replies · Outreach · Agent Platform';
  const query = new URLSearchParams(location.search);
  const state = { classification: query.get('classification') ?? '', replies: /** @type {any[]} */ ([]), cursor: '' };
  const filter = select(
    { name: 'classification', id: 'classification-filter', class: 'input select select-sm' },
    [{ value: '', label: 'All kinds' }, ...classificationChoices],
    state.classification,
  );
  filter.addEventListener('change', () => {
    options.open(filter.value ? `classification=${encodeURIComponent(filter.value)}` : null, { replace: true });
    document.getElementById(filter.id)?.focus();
  });
  const card = h('section', { class: 'card', 'aria-label': 'Replies' });
  const description =
    'What leads sent back to your sequences, newest first. Open one to read the whole conversation and answer in the lead’s thread.';
  mount(
    main,
    pageHeader({ title: 'Replies', description }),
    h(
      'div',
      { class: 'filters', role: 'group', 'aria-label': 'Filters' },
      h('label', { class: 'label', for: filter.id, text: 'Kind' }),
      filter,
    ),
    card,
  );
  void load();

  /** @param {string | undefined} [cursor] */
  async function fetchPage(cursor) {
    const page = await ctx.api.list_replies({
      limit: 50,
      ...(state.classification ? { classification: /** @type {any} */ (state.classification.split(',')) } : {}),
      ...(cursor ? { cursor } : {}),
    });
    const [names, people] = await Promise.all([
      options.sequenceNames(),
      Promise.all(page.data.map((r) => (r.lead_id ? options.leadOf(r.lead_id) : null))),
    ]);
    return {
      page,
      rows: page.data.map((r, i) => ({ reply: r, lead: people[i], sequence: names.get(r.sequence_id ?? '') })),
    };
  }

  async function load() {
    mount(card, loadingState('Loading replies…'));
    try {
      const { page, rows } = await fetchPage();
      if (!ctx.alive()) return;
      state.replies = rows;
      state.cursor = page.has_more ? (page.next_cursor ?? '') : '';
      render(null);
    } catch (error) {
      if (ctx.alive() && !(error instanceof ApiProblem && error.status === 401))
        mount(
          card,
          errorState(error instanceof Error ? error.message : String(error), () => void load()),
        );
    }
  }

  /** @param {HTMLButtonElement} button */
  async function loadMore(button) {
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    button.textContent = 'Loading…';
    try {
      const { page, rows } = await fetchPage(state.cursor);
      if (!ctx.alive()) return;
      state.replies = [...state.replies, ...rows];
      state.cursor = page.has_more ? (page.next_cursor ?? '') : '';
      render(null);
    } catch (error) {
      if (ctx.alive() && !(error instanceof ApiProblem && error.status === 401))
        render(error instanceof Error ? error.message : String(error));
    }
  }

  /** @param {string | null} moreError */
  function render(moreError) {
    if (!state.replies.length) {
      const message = state.classification
        ? 'Nothing of this kind came back yet. Choose another kind, or all kinds.'
        : 'When a lead answers a sequence’s email (or it bounces), it shows up here.';
      mount(
        card,
        emptyState({ icon: 'inbox', title: state.classification ? 'No matching replies' : 'No replies yet', message }),
      );
      return;
    }
    const head = ['Lead', 'Sequence', 'Kind', 'Message', 'Received'].map((t) => h('th', { scope: 'col', text: t }));
    const table = h(
      'table',
      { class: 'table replies-table' },
      h('caption', { class: 'sr-only', text: `Replies (${state.replies.length} shown)` }),
      h('thead', null, h('tr', null, head, h('th', { scope: 'col' }, srOnly('Actions')))),
      h(
        'tbody',
        null,
        state.replies.map((row) => replyRow(row, options.open)),
      ),
    );
    mountPagedTable(card, {
      table,
      count: state.replies.length,
      nouns: ['reply', 'replies'],
      hasMore: Boolean(state.cursor),
      moreError,
      onMore: (button) => void loadMore(button),
    });
  }
}

/** @param {{ reply: any, lead: any, sequence: string | undefined }} row @param {(query: string | null) => void} open */
function replyRow(row, open) {
  const r = row.reply;
  const who = row.lead?.email ?? (r.lead_id ? r.lead_id : 'Deleted lead');
  const query = r.lead_id ? `lead=${encodeURIComponent(r.lead_id)}` : null;
  const effect = effectText(r.effect);
  const text = r.text
    ? h('span', { class: 'reply-snippet', text: r.text.length > SNIPPET ? `${r.text.slice(0, SNIPPET - 1)}…` : r.text })
    : h('span', { class: 'muted', text: 'Text not shown (the mailbox may not read reply text).' });
  return h(
    'tr',
    { dataset: { replyId: r.id, classification: r.classification } },
    h(
      'th',
      { scope: 'row', class: 'cell-primary' },
      query
        ? h('a', { class: 'cell-title', href: `${PATH}?${query}`, text: who, on: { click: inPage(() => open(query)) } })
        : h('span', { class: 'cell-title', text: who }),
    ),
    h(
      'td',
      null,
      r.sequence_id
        ? h('a', {
            class: 'link',
            href: `/admin/sequences/${encodeURIComponent(r.sequence_id)}`,
            text: row.sequence ?? r.sequence_id,
          })
        : h('span', { class: 'muted', text: '—' }),
    ),
    h(
      'td',
      null,
      classificationBadge(r.classification),
      effect ? h('span', { class: 'cell-sub', text: effect }) : null,
    ),
    h('td', { class: 'cell-message' }, r.subject ? h('span', { class: 'cell-note', text: r.subject }) : null, text),
    h('td', { class: 'nowrap' }, timeElement(r.received_at, { relativeTime: true })),
    h(
      'td',
      { class: 'cell-actions' },
      query
        ? h('a', {
            class: 'btn btn-secondary btn-sm',
            href: `${PATH}?${query}`,
            'aria-label': `Open the conversation with ${who}`,
            text: 'Open',
            on: { click: inPage(() => open(query)) },
          })
        : null,
    ),
  );
}
