// Sequences → Sent messages: every message of the workspace's sequences, newest first, filtered by status
// (and by sequence when the link names one: ?sequence_id=seq_…), a page at a time. Filters live in the
// query string so a filtered list can be shared. In sandbox mode nothing was delivered; the sandbox
// mailbox below shows what would have been, as text.
import { ApiProblem } from './api.js';
import { badge, banner, h, mount } from './dom.js';
import { fullDate, timeElement } from './format.js';
import { select } from './forms.js';
import { sandboxMailbox } from './sandbox-mailbox.js';
import { messageStatusCell, messageStatusChoices } from './sequence-words.js';
import { emptyState, errorState, loadingState, pageHeader } from './shell.js';

const PATH = '/admin/sent-messages';

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 */
export function sentMessagesPage(main, ctx) {
  document.title = 'Sent messages · Sequences · Agent Platform';
  const query = new URLSearchParams(location.search);
  /** @type {{ status: string, sequenceId: string | null, messages: any[], cursor: string | null, sandboxMail: boolean, load: number }} */
  const state = {
    status: query.get('status') ?? '',
    sequenceId: query.get('sequence_id'),
    messages: [],
    cursor: null,
    sandboxMail: false,
    load: 0,
  };
  const description =
    'What sequences sent, are about to send, or could not send, newest first. A message is sent at most once: one that is uncertain is never retried.';
  const statusFilter = select(
    { name: 'status', id: 'status-filter', class: 'input select select-sm' },
    [{ value: '', label: 'All statuses' }, ...messageStatusChoices],
    state.status,
  );
  statusFilter.addEventListener('change', () => {
    state.status = statusFilter.value;
    history.replaceState(null, '', urlFor(state));
    void load();
  });
  const sandboxNote = h(
    'div',
    { class: 'notices', hidden: true },
    banner(
      'info',
      'Messages sent through a sandbox connector were not delivered to anyone: they are kept in the sandbox mailbox below.',
      { title: 'Sandbox mode' },
    ),
  );
  const card = h('section', { class: 'card', 'aria-label': 'Sent messages' });
  const mailbox = sandboxMailbox(ctx);
  mount(main, pageHeader({ title: 'Sent messages', description }), filters(), sandboxNote, card, mailbox.element);
  void load();
  void mailbox.load().then((mail) => {
    state.sandboxMail = Boolean(mail?.length);
    showSandbox();
  });

  function filters() {
    const bySequence = state.sequenceId
      ? h(
          'span',
          { class: 'filter-chip' },
          'Sequence ',
          h('code', { text: state.sequenceId }),
          h('a', { class: 'link', href: urlFor({ ...state, sequenceId: null }), text: 'Show every sequence' }),
        )
      : null;
    return h(
      'div',
      { class: 'filters', role: 'group', 'aria-label': 'Filters' },
      h('label', { class: 'label', for: statusFilter.id, text: 'Status' }),
      statusFilter,
      bySequence,
    );
  }

  /** Reads the first page for the current filters; a slower answer for earlier filters is dropped. */
  async function load() {
    const current = ++state.load;
    mount(card, loadingState('Loading messages…'));
    try {
      const page = await ctx.api.list_sent_messages(sentFilter(state));
      if (!ctx.alive() || current !== state.load) return;
      state.messages = page.data;
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
      const page = await ctx.api.list_sent_messages({ ...sentFilter(state), cursor: state.cursor ?? undefined });
      if (!ctx.alive() || current !== state.load) return;
      state.messages = [...state.messages, ...page.data];
      state.cursor = page.has_more ? page.next_cursor : null;
      render(null);
    } catch (error) {
      if (ctx.alive() && current === state.load && !(error instanceof ApiProblem && error.status === 401))
        render(error instanceof Error ? error.message : String(error));
    }
  }

  function showSandbox() {
    const sandbox = state.sandboxMail || state.messages.some((m) => m.mode === 'sandbox');
    sandboxNote.hidden = !sandbox;
    mailbox.element.hidden = !sandbox;
  }

  /** @param {string | null} moreError why the last "Load more" failed */
  function render(moreError) {
    showSandbox();
    if (!state.messages.length) {
      const filtered = state.status || state.sequenceId;
      const message = filtered
        ? 'No message matches these filters.'
        : 'When a launched sequence sends, each message shows up here.';
      mount(card, emptyState({ icon: 'mail', title: filtered ? 'No matching messages' : 'No messages yet', message }));
      return;
    }
    const head = ['To', 'Subject', 'Step', 'Status', 'Sent', 'Error'].map((t) => h('th', { scope: 'col', text: t }));
    const table = h(
      'table',
      { class: 'table' },
      h('caption', { class: 'sr-only', text: `Messages (${state.messages.length} shown)` }),
      h('thead', null, h('tr', null, head)),
      h('tbody', null, state.messages.map(messageRow)),
    );
    const more = state.cursor
      ? /** @type {HTMLButtonElement} */ (
          h('button', { type: 'button', class: 'btn btn-secondary btn-sm', text: 'Load more' })
        )
      : null;
    more?.addEventListener('click', () => void loadMore(more));
    const n = state.messages.length;
    const footer = h(
      'div',
      { class: 'card-footer footer-row' },
      h('span', { text: `${n} ${n === 1 ? 'message' : 'messages'}${state.cursor ? ' shown' : ''}` }),
      more,
    );
    mount(
      card,
      h('div', { class: 'table-wrap' }, table),
      moreError
        ? h('div', { class: 'error-state' }, banner('error', moreError, { title: 'Could not load more messages' }))
        : null,
      footer,
    );
  }
}

/**
 * The list's query: a status filter is one of the list's statuses, comma-joined when several.
 * @param {{ status: string, sequenceId: string | null }} filter
 * @returns {import('../../generated/sdk.ts').ListSentMessagesArgs}
 */
function sentFilter(filter) {
  return {
    limit: 50,
    ...(filter.status ? { status: /** @type {any} */ (filter.status.split(',')) } : {}),
    ...(filter.sequenceId ? { sequence_id: filter.sequenceId } : {}),
  };
}

/** @param {{ status: string, sequenceId: string | null }} filter */
function urlFor(filter) {
  const q = new URLSearchParams();
  if (filter.sequenceId) q.set('sequence_id', filter.sequenceId);
  if (filter.status) q.set('status', filter.status);
  const s = q.toString();
  return s ? `${PATH}?${s}` : PATH;
}

/** @param {any} m */
function messageRow(m) {
  const sent = m.sent_at
    ? timeElement(m.sent_at, { relativeTime: true })
    : h('span', { class: 'cell-sub', text: m.status === 'scheduled' ? `Due ${fullDate(m.scheduled_at)}` : '—' });
  const error =
    m.error_code || m.error_message
      ? [
          m.error_code ? h('code', { class: 'cell-note', text: m.error_code }) : null,
          m.error_message ? h('span', { class: 'cell-sub failure', text: m.error_message }) : null,
        ]
      : h('span', { class: 'muted', text: '—' });
  return h(
    'tr',
    { dataset: { messageId: m.id, status: m.status } },
    h(
      'th',
      { scope: 'row', class: 'cell-primary' },
      h(
        'span',
        { class: 'cell-title' },
        h('span', { text: m.to ?? '(lead deleted)' }),
        m.mode === 'sandbox' ? badge('Sandbox', 'amber') : null,
      ),
    ),
    h('td', { class: 'cell-subject', text: m.subject ?? '—' }),
    h('td', { text: String(m.step) }),
    h('td', null, messageStatusCell(m.status)),
    h('td', null, sent),
    h('td', null, error),
  );
}
