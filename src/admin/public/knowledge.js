// Outreach → Knowledge: the websites and pages the agents quote from. The sources with their state, pages and
// passages; ingesting a URL followed to its end; refreshing a source (its row follows the fetch) and deleting one
// after a confirmation; and a search over everything ingested.
import './knowledge.css';
import { allPages } from './api.js';
import { confirmDialog } from './dialogs.js';
import { banner, h, icon, mount, srOnly } from './dom.js';
import { timeElement } from './format.js';
import { followOperation } from './knowledge-follow.js';
import { ingestCard } from './knowledge-ingest.js';
import { searchCard } from './knowledge-search.js';
import { sourceDialog } from './knowledge-source-dialog.js';
import { busyFetching, counted, sourceStatus } from './knowledge-words.js';
import { emptyState, errorState, loadingState, pageHeader } from './shell.js';

// A source someone else is fetching (an agent, another tab) is looked at again this often.
const RECHECK_MS = 5000;

/** @param {HTMLElement} main @param {import('./app.js').PageContext} ctx */
export function knowledgePage(main, ctx) {
  document.title = 'Knowledge · Agent Platform';
  /** @type {{ sources: any[], followed: Set<string> }} */
  const state = { sources: [], followed: new Set() };
  const notices = h('div', { class: 'notices' });
  const list = h('section', { class: 'card', 'aria-label': 'Sources' });
  const ingest = ingestCard(ctx, { reloadSource, view: (source) => sourceDialog(ctx, source) });
  const search = searchCard(ctx);
  const description =
    'What the agents know about your business: pages of your website, split into passages they search and quote when they write.';
  mount(
    main,
    pageHeader({ title: 'Knowledge', description }),
    notices,
    h('div', { class: 'knowledge-grid' }, ingest.card, search),
    list,
  );
  let recheck = 0;
  ctx.signal.addEventListener('abort', () => clearTimeout(recheck));
  void load();

  async function load() {
    mount(list, loadingState('Loading knowledge sources…'));
    try {
      const sources = await allPages((c) => ctx.api.list_knowledge_sources({ limit: 100, cursor: c ?? undefined }));
      if (!ctx.alive()) return;
      state.sources = sources;
      render();
    } catch (error) {
      if (ctx.alive())
        mount(
          list,
          errorState(error instanceof Error ? error.message : String(error), () => void load()),
        );
    }
  }

  /** Reads one source again and shows it (a new one goes first). @param {string} id */
  async function reloadSource(id) {
    const source = await ctx.api.get_knowledge_source({ source_id: id });
    if (!ctx.alive()) return source;
    const known = state.sources.some((s) => s.id === id);
    state.sources = known ? state.sources.map((s) => (s.id === id ? source : s)) : [source, ...state.sources];
    render();
    return source;
  }

  /** @param {'success' | 'error' | 'info'} kind @param {string} message */
  function notify(kind, message) {
    mount(notices, banner(kind, message, { onDismiss: () => mount(notices) }));
  }

  function render() {
    // The table is rebuilt as a fetch progresses: the button that had focus gets it back.
    const focused = list.contains(document.activeElement) ? document.activeElement?.getAttribute('aria-label') : null;
    renderList();
    const again = focused ? list.querySelector(`[aria-label="${CSS.escape(focused)}"]`) : null;
    if (again instanceof HTMLElement && !(again instanceof HTMLButtonElement && again.disabled)) again.focus();
  }

  function renderList() {
    search.hidden = !state.sources.length;
    scheduleRecheck();
    if (!state.sources.length) {
      const first = h(
        'button',
        { type: 'button', class: 'btn btn-primary', on: { click: () => ingest.focus() } },
        icon('plus'),
        h('span', { text: 'Ingest your website' }),
      );
      mount(
        list,
        emptyState({
          icon: 'book',
          title: 'No knowledge yet',
          message:
            'Ingest your website — the home page, pricing, about and blog — so the agents write from what you actually offer.',
          action: first,
        }),
      );
      return;
    }
    const head = ['Source', 'Status', 'Pages', 'Passages', 'Last fetched'].map((t) =>
      h('th', { scope: 'col', text: t }),
    );
    const table = h(
      'table',
      { class: 'table knowledge-table' },
      h('thead', null, h('tr', null, head, h('th', { scope: 'col' }, srOnly('Actions')))),
      h('tbody', null, state.sources.map(sourceRow)),
    );
    const pages = state.sources.reduce((sum, s) => sum + s.pages_fetched, 0);
    mount(
      list,
      h(
        'div',
        { class: 'card-header' },
        h('h2', { class: 'card-title', id: 'knowledge-sources-title', text: 'Sources' }),
      ),
      h('div', { class: 'table-wrap' }, table),
      h('p', {
        class: 'card-footer',
        text: `${counted(state.sources.length, 'source', 'sources')} · ${counted(pages, 'page', 'pages')}`,
      }),
    );
  }

  /** @param {any} source */
  function sourceRow(source) {
    const name = source.title || source.url;
    const busy = busyFetching(source);
    const actions = h(
      'div',
      { class: 'row-actions' },
      h('button', {
        type: 'button',
        class: 'btn btn-secondary btn-sm',
        'aria-label': `View pages of ${name}`,
        text: 'View',
        on: { click: () => sourceDialog(ctx, source) },
      }),
      h('button', {
        type: 'button',
        class: 'btn btn-secondary btn-sm',
        'aria-label': `Refresh ${name}`,
        text: busy ? 'Fetching…' : 'Refresh',
        disabled: busy,
        on: { click: () => void refresh(source) },
      }),
      h('button', {
        type: 'button',
        class: 'btn btn-ghost-danger btn-sm',
        'aria-label': `Delete ${name}`,
        text: 'Delete',
        on: { click: () => void remove(source) },
      }),
    );
    return h(
      'tr',
      { dataset: { sourceId: source.id, status: source.status } },
      h(
        'th',
        { scope: 'row', class: 'cell-primary knowledge-source-cell' },
        h('span', { class: 'cell-title', text: source.title || 'Untitled page' }),
        h('span', { class: 'cell-sub knowledge-url', text: source.url }),
      ),
      h(
        'td',
        null,
        sourceStatus(source),
        source.last_error ? h('span', { class: 'cell-sub failure knowledge-error', text: source.last_error }) : null,
      ),
      h('td', { class: 'nowrap', text: String(source.pages_fetched) }),
      h('td', { class: 'nowrap', text: String(source.chunks) }),
      h(
        'td',
        null,
        source.fetched_at
          ? timeElement(source.fetched_at, { relativeTime: true })
          : h('span', { class: 'muted', text: 'Never' }),
      ),
      h('td', { class: 'cell-actions' }, actions),
    );
  }

  /** @param {any} source */
  async function refresh(source) {
    const name = source.title || source.url;
    let operation;
    try {
      operation = await ctx.api.refresh_knowledge_source({ source_id: source.id });
    } catch (error) {
      if (ctx.alive())
        notify('error', `Could not refresh “${name}”: ${error instanceof Error ? error.message : error}`);
      return;
    }
    if (!ctx.alive()) return;
    state.followed.add(source.id);
    notify('info', `Fetching “${name}” again…`);
    try {
      await reloadSource(source.id);
      const done = await followOperation(ctx, operation, () => void reloadSource(source.id).catch(() => null));
      if (!ctx.alive()) return;
      const now = await reloadSource(source.id);
      if (!ctx.alive()) return;
      if (done.status === 'succeeded')
        notify(
          'success',
          `Refreshed “${name}”: ${counted(now.pages_fetched, 'page', 'pages')}, ${counted(now.chunks, 'passage', 'passages')}.`,
        );
      else
        notify(
          'error',
          `The refresh of “${name}” failed: ${done.error?.detail ?? done.status}. The last good content stays searchable.`,
        );
    } catch (error) {
      if (ctx.alive()) notify('error', error instanceof Error ? error.message : String(error));
    } finally {
      state.followed.delete(source.id);
    }
  }

  /** @param {any} source */
  async function remove(source) {
    const name = source.title || source.url;
    await confirmDialog({
      title: 'Delete knowledge source?',
      message: [
        h('strong', { text: name }),
        ` and its ${counted(source.chunks, 'passage', 'passages')} will be deleted; the agents will no longer find them. This cannot be undone.`,
      ],
      confirmLabel: 'Delete source',
      busyLabel: 'Deleting…',
      action: async () => {
        await ctx.api.delete_knowledge_source({ source_id: source.id });
        if (!ctx.alive()) return;
        state.sources = state.sources.filter((s) => s.id !== source.id);
        render();
        notify('success', `Deleted “${name}”.`);
      },
    });
  }

  /** Sources fetched by someone else (not followed here) are read again until they settle. */
  function scheduleRecheck() {
    clearTimeout(recheck);
    const others = state.sources.filter((s) => busyFetching(s) && !state.followed.has(s.id));
    if (!others.length || !ctx.alive()) return;
    recheck = window.setTimeout(() => {
      for (const s of others) void reloadSource(s.id).catch(() => null);
    }, RECHECK_MS);
  }
}
