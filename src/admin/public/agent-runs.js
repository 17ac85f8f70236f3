// Agents → Agent runs: the workspace's runs of store agents, newest first, filtered by status (`?status=…`, kept
// in the address), with how far each got and what a waiting run needs from a person. `?run=run_…` opens one run
// (agent-run.js): its steps, what it made, and Cancel.
import { runAgentDialog } from './run-agent-dialog.js';
import { ApiProblem } from './api.js';
import { agentRunView } from './agent-run.js';
import { actionSummary, runStatusBadge, runStatusChoices, stepsDone } from './agent-run-words.js';
import { h, icon, mount, srOnly } from './dom.js';
import { timeElement } from './format.js';
import { select } from './forms.js';
import { inPage } from './long-poll.js';
import { emptyState, errorState, focusTitle, loadingState, mountPagedTable, pageHeader } from './shell.js';
import './agent-runs.css';

const PATH = '/admin/agent-runs';

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 */
export function agentRunsPage(main, ctx) {
  /** @type {Promise<Map<string, string>> | null} */
  let agents = null;
  // Agents are shown by name; the page still works (with slugs) when the store cannot be read.
  const agentNames = () =>
    (agents ??= ctx.api
      .list_agents_in_store()
      .then((list) => new Map(list.data.map((a) => [a.slug, a.name])))
      .catch(() => new Map()));
  let view = 0;
  let stopView = () => {};
  let listUrl = PATH;

  const show = () => {
    const current = ++view;
    const life = new AbortController();
    ctx.signal.addEventListener('abort', () => life.abort(), { once: true });
    stopView();
    stopView = () => life.abort();
    const viewCtx = {
      ...ctx,
      api: ctx.api.withSignal(life.signal),
      alive: () => ctx.alive() && current === view,
      signal: life.signal,
    };
    const runId = new URLSearchParams(location.search).get('run');
    if (runId) agentRunView(main, viewCtx, { runId, back: back(), agentNames });
    else {
      listUrl = `${PATH}${location.search}`;
      runList(main, viewCtx, { agentNames, open });
    }
  };

  /** @param {string | null} query @param {{ replace?: boolean }} [how] */
  function open(query, how = {}) {
    history[how.replace ? 'replaceState' : 'pushState'](null, '', query ? `${PATH}?${query}` : PATH);
    show();
    if (!how.replace) focusTitle(main);
  }

  function back() {
    const to = listUrl;
    const query = new URL(to, location.href).search.slice(1) || null;
    return h(
      'a',
      { class: 'back-link', href: to, on: { click: inPage(() => open(query)) } },
      h('span', { 'aria-hidden': 'true', text: '← ' }),
      'All runs',
    );
  }

  window.addEventListener('popstate', () => location.pathname === PATH && show(), { signal: ctx.signal });
  show();
}

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 * @param {{ agentNames: () => Promise<Map<string, string>>, open: (query: string | null, how?: { replace?: boolean }) => void }} options
 */
function runList(main, ctx, options) {
  document.title = 'Agent runs · Agents · Agent Platform';
  const status = new URLSearchParams(location.search).get('status') ?? '';
  const state = { runs: /** @type {any[]} */ ([]), cursor: '', names: /** @type {Map<string, string>} */ (new Map()) };
  const filter = select(
    { name: 'status', id: 'run-status-filter', class: 'input select select-sm' },
    [{ value: '', label: 'All statuses' }, ...runStatusChoices],
    status,
  );
  filter.addEventListener('change', () => {
    options.open(filter.value ? `status=${encodeURIComponent(filter.value)}` : null, { replace: true });
    document.getElementById(filter.id)?.focus();
  });
  const card = h('section', { class: 'card', 'aria-label': 'Agent runs' });
  const runButton = h(
    'button',
    {
      type: 'button',
      class: 'btn btn-primary',
      on: {
        click: () =>
          void runAgentDialog(ctx, { onStarted: (run) => options.open(`run=${encodeURIComponent(run.id)}`) }),
      },
    },
    icon('plus'),
    h('span', { text: 'Run an agent' }),
  );
  const description =
    'What agents from the store did in this workspace, newest first. A run that waits for you says what it needs, with the link to give it; it goes on by itself once you have acted.';
  mount(
    main,
    pageHeader({ title: 'Agent runs', description, action: runButton }),
    h(
      'div',
      { class: 'filters', role: 'group', 'aria-label': 'Filters' },
      h('label', { class: 'label', for: filter.id, text: 'Status' }),
      filter,
    ),
    card,
  );
  void load();

  /** @param {string} [cursor] */
  function fetchPage(cursor) {
    return ctx.api.list_agent_runs({
      limit: 50,
      ...(status ? { status: /** @type {any} */ (status.split(',')) } : {}),
      ...(cursor ? { cursor } : {}),
    });
  }

  async function load() {
    mount(card, loadingState('Loading agent runs…'));
    try {
      const [page, names] = await Promise.all([fetchPage(), options.agentNames()]);
      if (!ctx.alive()) return;
      state.names = names;
      state.runs = page.data;
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
      const page = await fetchPage(state.cursor);
      if (!ctx.alive()) return;
      state.runs = [...state.runs, ...page.data];
      state.cursor = page.has_more ? (page.next_cursor ?? '') : '';
      render(null);
    } catch (error) {
      if (ctx.alive() && !(error instanceof ApiProblem && error.status === 401))
        render(error instanceof Error ? error.message : String(error));
    }
  }

  /** @param {string | null} moreError */
  function render(moreError) {
    if (!state.runs.length) {
      const message = status
        ? 'No run has this status. Choose another status, or all statuses.'
        : 'When an agent from the store runs in this workspace (run_agent, through the API or the tool server), it shows up here with its steps.';
      mount(card, emptyState({ icon: 'bot', title: status ? 'No matching runs' : 'No agent runs yet', message }));
      return;
    }
    const head = ['Agent', 'Status', 'Started', 'Steps done', 'Waiting for'].map((t) =>
      h('th', { scope: 'col', text: t }),
    );
    const table = h(
      'table',
      { class: 'table runs-table' },
      h('caption', { class: 'sr-only', text: `Agent runs (${state.runs.length} shown)` }),
      h('thead', null, h('tr', null, head, h('th', { scope: 'col' }, srOnly('Actions')))),
      h(
        'tbody',
        null,
        state.runs.map((r) => runRow(r, state.names.get(r.agent_slug) ?? r.agent_slug, options.open)),
      ),
    );
    mountPagedTable(card, {
      table,
      count: state.runs.length,
      nouns: ['run', 'runs'],
      hasMore: Boolean(state.cursor),
      moreError,
      onMore: (button) => void loadMore(button),
    });
  }
}

/** @param {any} r @param {string} name @param {(query: string) => void} open */
function runRow(r, name, open) {
  const query = `run=${encodeURIComponent(r.id)}`;
  const go = inPage(() => open(query));
  const waiting = r.required_action
    ? h('span', { class: 'cell-note', text: actionSummary(r.required_action) })
    : r.error
      ? h('span', { class: 'cell-note failure', text: r.error.detail ?? r.error.code })
      : h('span', { class: 'muted', text: '—' });
  return h(
    'tr',
    { dataset: { runId: r.id, status: r.status } },
    h(
      'th',
      { scope: 'row', class: 'cell-primary' },
      h('a', { class: 'cell-title', href: `${PATH}?${query}`, text: name, on: { click: go } }),
      h('span', { class: 'cell-sub', text: r.id }),
    ),
    h('td', null, runStatusBadge(r.status)),
    h('td', { class: 'nowrap' }, timeElement(r.created_at, { relativeTime: true })),
    h('td', { class: 'nowrap' }, stepsDone(r.steps)),
    h('td', { class: 'cell-waiting' }, waiting),
    h(
      'td',
      { class: 'cell-actions' },
      h('a', {
        class: 'btn btn-secondary btn-sm',
        href: `${PATH}?${query}`,
        'aria-label': `Open the ${name} run ${r.id}`,
        text: 'Open',
        on: { click: go },
      }),
    ),
  );
}
