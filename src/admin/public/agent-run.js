// One agent run on the Agent runs page: its status, what it waits for (with the link to act), its steps in
// order, what it made and noted, its input and raw output (collapsed), followed live with get_agent_run and
// wait_seconds until it ends. Cancel asks first and is offered only while the run can still be stopped.
import { ApiProblem } from './api.js';
import {
  actionLinks,
  actionRequest,
  cancellable,
  finished,
  resourceLink,
  runStatusBadge,
  stepName,
  stepsDone,
  stepStatusBadge,
} from './agent-run-words.js';
import { confirmDialog } from './dialogs.js';
import { banner, h, mount } from './dom.js';
import { fullDate, timeElement } from './format.js';
import { follow } from './long-poll.js';
import { errorState, loadingState, pageHeader } from './shell.js';

const WAIT_SECONDS = 25;

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 * @param {{ runId: string, back: HTMLElement, agentNames: () => Promise<Map<string, string>> }} options
 */
export function agentRunView(main, ctx, options) {
  document.title = 'Agent run · Agents · Agent Platform';
  const notices = h('div', { class: 'notices' });
  const body = h('div', { class: 'run-body' });
  const actions = h('div', { class: 'page-actions' });
  let name = '';

  async function load() {
    mount(main, options.back, loadingState('Loading the run…'));
    try {
      const [run, names] = await Promise.all([ctx.api.get_agent_run({ run_id: options.runId }), options.agentNames()]);
      if (!ctx.alive()) return;
      name = names.get(run.agent_slug) ?? run.agent_slug;
      document.title = `${name} run · Agents · Agent Platform`;
      const description = `Run ${run.id}, started ${fullDate(run.created_at)}.`;
      mount(main, options.back, pageHeader({ title: `${name} run`, description, action: actions }), notices, body);
      show(run);
      if (!finished(run.status))
        void follow({
          read: () => ctx.api.get_agent_run({ run_id: options.runId, wait_seconds: WAIT_SECONDS }),
          onValue: show,
          alive: ctx.alive,
          signal: ctx.signal,
          settled: (r) => finished(r.status),
        });
    } catch (error) {
      if (!ctx.alive() || (error instanceof ApiProblem && error.status === 401)) return;
      mount(
        main,
        options.back,
        errorState(error instanceof Error ? error.message : String(error), () => void load()),
      );
    }
  }

  /** @param {any} run */
  function show(run) {
    mount(actions, cancellable(run.status) ? cancelButton(run) : null);
    mount(
      body,
      summary(run),
      run.required_action ? waitingCard(run.required_action, ctx.navigate) : null,
      run.error
        ? h(
            'div',
            { class: 'notices' },
            banner('error', run.error.detail ?? run.error.code, { title: `Failed: ${run.error.code}` }),
          )
        : null,
      stepsCard(run),
      outputCard(run, ctx.navigate),
    );
  }

  /** @param {any} run */
  function cancelButton(run) {
    return h('button', {
      type: 'button',
      class: 'btn btn-danger',
      text: 'Cancel run',
      on: { click: () => void cancel(run) },
    });
  }

  /** @param {any} run */
  async function cancel(run) {
    /** @type {any} */
    let after = null;
    const done = await confirmDialog({
      title: 'Cancel this run?',
      message: [
        'The ',
        h('strong', { text: name }),
        ' run stops: at once when it is queued or waiting, before its next step when it is running. What it already made stays.',
      ],
      confirmLabel: 'Cancel run',
      busyLabel: 'Cancelling…',
      action: async () => {
        after = await ctx.api.cancel_agent_run({ run_id: run.id });
      },
    });
    if (!done || !after || !ctx.alive()) return;
    const message =
      after.status === 'cancelled'
        ? 'Cancelled. What the run already made stays.'
        : 'Cancel requested: the run stops before its next step.';
    mount(notices, banner('success', message));
    try {
      show(await ctx.api.get_agent_run({ run_id: run.id }));
    } catch {
      // The long poll brings the cancelled run.
    }
  }

  void load();
}

/** @param {any} run */
function summary(run) {
  /** @type {Array<[string, Node | string]>} */
  const rows = [
    ['Status', runStatusBadge(run.status)],
    ['Agent', `${run.agent_slug} ${run.agent_version ?? ''}`.trim()],
    ['Started', timeElement(run.created_at, { relativeTime: true })],
    ['Steps done', stepsDone(run.steps)],
  ];
  if (run.finished_at) rows.push(['Finished', timeElement(run.finished_at, { relativeTime: true })]);
  return h(
    'section',
    { class: 'card', 'aria-label': 'Run summary' },
    h(
      'dl',
      { class: 'details' },
      rows.flatMap(([term, value]) => [h('dt', { text: term }), h('dd', null, value)]),
    ),
  );
}

/** @param {any} action @param {(path: string) => void} navigate */
function waitingCard(action, navigate) {
  return h(
    'section',
    { class: 'card section run-waiting', 'aria-labelledby': 'run-waiting-title' },
    h('h2', { id: 'run-waiting-title', class: 'card-title', text: 'Waiting for you' }),
    h('p', { class: 'run-waiting-text', text: actionRequest(action) }),
    h('div', { class: 'row-actions' }, actionLinks(action, navigate)),
    action.expires_at
      ? h('p', { class: 'cell-sub', text: `The link works until ${fullDate(action.expires_at)}.` })
      : null,
  );
}

/** @param {any} run */
function stepsCard(run) {
  const steps = run.steps ?? [];
  return h(
    'section',
    { class: 'card section', 'aria-labelledby': 'run-steps-title' },
    h('div', { class: 'card-header' }, h('h2', { id: 'run-steps-title', class: 'card-title', text: 'Steps' })),
    steps.length
      ? h(
          'ol',
          { class: 'run-steps', 'aria-label': 'Steps, in order' },
          steps.map((/** @type {any} */ s) =>
            h(
              'li',
              { class: 'run-step', dataset: { status: s.status } },
              h('span', { class: 'run-step-name', text: stepName(s.name) }),
              stepStatusBadge(s.status),
              h(
                'span',
                { class: 'cell-sub' },
                s.started_at ? ['Started ', timeElement(s.started_at, { relativeTime: true })] : null,
                s.finished_at ? [' · finished ', timeElement(s.finished_at, { relativeTime: true })] : null,
              ),
            ),
          ),
        )
      : h('p', { class: 'empty-text run-empty', text: 'This run has no steps yet.' }),
    run.notes?.length
      ? h(
          'div',
          { class: 'run-notes' },
          h('h3', { class: 'run-subtitle', text: 'Notes' }),
          h(
            'ul',
            null,
            run.notes.map((/** @type {string} */ n) => h('li', { text: n })),
          ),
        )
      : null,
  );
}

/** What the run made, and its input and raw output as the API returns them. @param {any} run @param {(path: string) => void} navigate */
function outputCard(run, navigate) {
  const resources = run.output?.resources ?? [];
  return h(
    'section',
    { class: 'card section', 'aria-labelledby': 'run-output-title' },
    h(
      'div',
      { class: 'card-header' },
      h('h2', { id: 'run-output-title', class: 'card-title', text: 'Input and output' }),
    ),
    h(
      'div',
      { class: 'run-output' },
      resources.length
        ? h(
            'ul',
            { class: 'run-resources', 'aria-label': 'What it made' },
            resources.map((/** @type {any} */ r) => h('li', null, resourceLink(r, navigate))),
          )
        : h('p', { class: 'muted', text: finished(run.status) ? 'It made nothing.' : 'Nothing made yet.' }),
      raw('Input', run.input),
      run.output ? raw('Raw output', run.output) : null,
    ),
  );
}

/** @param {string} label @param {unknown} value */
function raw(label, value) {
  return h(
    'details',
    { class: 'run-raw' },
    h('summary', { text: label }),
    h('pre', { class: 'mail-text', text: JSON.stringify(value, null, 2) }),
  );
}
