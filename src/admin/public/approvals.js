// Sequences → Approvals: the sequences and the replies to leads waiting for a person's decision, and the
// review of one of them. `?sequence=seq_…` or `?reply=crp_…` (the approval_urls the API hands to agents) opens
// that review directly; choosing one from the list, or going back, changes only the query string, so browser
// history moves between them.
import { allPages, ApiProblem } from './api.js';
import { approvalReview } from './approval-review.js';
import { connectorName, modeCell } from './connector-words.js';
import { h, mount, srOnly } from './dom.js';
import { pendingRepliesCard, replyReview } from './reply-approvals.js';
import { timeElement } from './format.js';
import { emptyState, errorState, focusTitle, loadingState, pageHeader } from './shell.js';

const PATH = '/admin/approvals';

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 */
export function approvalsPage(main, ctx) {
  /** @type {Promise<Map<string, any>> | null} */
  let connectors = null;
  // Senders are shown by account and mode; the page still works (with ids) when they cannot be read.
  const senders = () =>
    (connectors ??= allPages((c) => ctx.api.list_connectors({ limit: 50, cursor: c ?? undefined }))
      .then((list) => new Map(list.map((c) => [c.id, c])))
      .catch(() => new Map()));

  let view = 0;
  const show = () => {
    // Work of the view drawn before (a slow load) stops mattering, like a page's when it is left.
    const current = ++view;
    const viewCtx = { ...ctx, alive: () => ctx.alive() && current === view };
    const query = new URLSearchParams(location.search);
    const id = query.get('sequence');
    const replyId = query.get('reply');
    if (id) approvalReview(main, viewCtx, { id, connectors: senders, back: backLink() });
    else if (replyId) replyReview(main, viewCtx, { id: replyId, back: backLink('All pending approvals') });
    else {
      pendingList(main, viewCtx, { connectors: senders, open });
      main.append(
        pendingRepliesCard(viewCtx, (event, replyId) =>
          inPage(() => openQuery(`reply=${encodeURIComponent(replyId)}`))(event),
        ),
      );
    }
  };

  /** @param {string | null} id */
  function open(id) {
    openQuery(id ? `sequence=${encodeURIComponent(id)}` : null);
  }

  /** @param {string | null} query */
  function openQuery(query) {
    history.pushState(null, '', query ? `${PATH}?${query}` : PATH);
    show();
    focusTitle(main);
  }

  function backLink(label = 'All sequences pending approval') {
    return h(
      'a',
      { class: 'back-link', href: PATH, on: { click: inPage(() => open(null)) } },
      h('span', { 'aria-hidden': 'true', text: '← ' }),
      label,
    );
  }

  window.addEventListener('popstate', () => location.pathname === PATH && show(), { signal: ctx.signal });
  show();
}

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 * @param {{ connectors: () => Promise<Map<string, any>>, open: (id: string) => void }} options
 */
function pendingList(main, ctx, options) {
  document.title = 'Approvals · Sequences · Agent Platform';
  const description =
    'Sequences and replies to leads waiting for a person to approve them before they can send. Agents cannot approve: they hand you the link here and wait for your decision.';
  const card = h('section', { class: 'card', 'aria-label': 'Sequences pending approval' });
  mount(main, pageHeader({ title: 'Approvals', description }), card);
  void load();

  async function load() {
    mount(card, loadingState('Loading sequences pending approval…'));
    try {
      const [sequences, connectors] = await Promise.all([
        allPages((c) =>
          ctx.api.list_email_sequences({ limit: 50, status: ['pending_approval'], cursor: c ?? undefined }),
        ),
        options.connectors(),
      ]);
      if (ctx.alive()) render(sequences, connectors);
    } catch (error) {
      if (ctx.alive() && !(error instanceof ApiProblem && error.status === 401))
        mount(
          card,
          errorState(error instanceof Error ? error.message : String(error), () => void load()),
        );
    }
  }

  /** @param {any[]} sequences @param {Map<string, any>} connectors */
  function render(sequences, connectors) {
    if (!sequences.length) {
      mount(
        card,
        emptyState({
          icon: 'check',
          title: 'Nothing to approve',
          message: 'When an agent submits a sequence for approval, it shows up here with every message rendered.',
        }),
      );
      return;
    }
    const head = ['Sequence', 'Sender', 'Steps', 'Submitted'].map((t) => h('th', { scope: 'col', text: t }));
    const table = h(
      'table',
      { class: 'table' },
      h('caption', { class: 'sr-only', text: `Sequences pending approval (${sequences.length})` }),
      h('thead', null, h('tr', null, head, h('th', { scope: 'col' }, srOnly('Actions')))),
      h(
        'tbody',
        null,
        sequences.map((s) => row(s, connectors.get(s.sender_connector_id))),
      ),
    );
    const n = sequences.length;
    mount(
      card,
      h('div', { class: 'table-wrap' }, table),
      h('p', { class: 'card-footer', text: `${n} ${n === 1 ? 'sequence' : 'sequences'} pending approval` }),
    );
  }

  /** @param {any} s @param {any} sender */
  function row(s, sender) {
    const href = `${PATH}?sequence=${encodeURIComponent(s.id)}`;
    const open = inPage(() => options.open(s.id));
    return h(
      'tr',
      { dataset: { sequenceId: s.id } },
      h(
        'th',
        { scope: 'row', class: 'cell-primary' },
        h('a', { class: 'cell-title', href, on: { click: open }, text: s.name }),
        h('span', { class: 'cell-sub', text: `Revision ${s.revision}` }),
      ),
      h(
        'td',
        null,
        sender
          ? [h('span', { class: 'cell-note', text: connectorName(sender) }), modeCell(sender)]
          : h('span', { class: 'muted', text: s.sender_connector_id ?? 'No sender' }),
      ),
      h('td', { text: String(s.steps.length) }),
      h('td', null, timeElement(s.updated_at, { relativeTime: true })),
      h(
        'td',
        { class: 'cell-actions' },
        h('a', {
          class: 'btn btn-secondary btn-sm',
          href,
          'aria-label': `Review ${s.name}`,
          text: 'Review',
          on: { click: open },
        }),
      ),
    );
  }
}

/** A same-page link: plain clicks stay in the page, modified ones keep the browser's behaviour. @param {() => void} go */
function inPage(go) {
  /** @param {MouseEvent} event */
  return (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    go();
  };
}
