// The leads enrolled in a sequence, a page at a time: where each is (next step and when), or why it stopped.
import { ApiProblem } from './api.js';
import { badge, banner, h, mount } from './dom.js';
import { fullDate, timeElement } from './format.js';
import { emptyState, errorState, loadingState } from './shell.js';
import { appLink } from './app-link.js';

const PAGE = 25;

/** @type {Record<string, { label: string, tone: 'green' | 'gray' | 'indigo' | 'amber' | 'red' }>} */
const STATUSES = {
  active: { label: 'Active', tone: 'indigo' },
  completed: { label: 'Completed', tone: 'green' },
  stopped: { label: 'Stopped', tone: 'amber' },
  removed: { label: 'Removed', tone: 'gray' },
};

/**
 * @param {import('./app.js').PageContext} ctx
 * @param {any} sequence
 * @param {(id: string) => string} mailboxName
 */
export function enrollmentsCard(ctx, sequence, mailboxName) {
  /** @type {{ rows: any[], cursor: string | null }} */
  const state = { rows: [], cursor: null };
  const body = h('div');
  const card = h(
    'section',
    { class: 'card section', 'aria-labelledby': 'enrollments-title' },
    h(
      'div',
      { class: 'card-header' },
      h('h2', { id: 'enrollments-title', class: 'card-title', text: 'Enrolled leads' }),
    ),
    body,
  );
  /** @param {string | null} cursor */
  const page = (cursor) =>
    ctx.api.list_sequence_enrollments({ sequence_id: sequence.id, limit: PAGE, cursor: cursor ?? undefined });

  const load = async () => {
    mount(body, loadingState('Loading enrolled leads…'));
    try {
      const first = await page(null);
      if (!ctx.alive()) return;
      state.rows = first.data;
      state.cursor = first.has_more ? (first.next_cursor ?? null) : null;
      render(null);
    } catch (error) {
      if (ctx.alive() && !(error instanceof ApiProblem && error.status === 401))
        mount(
          body,
          errorState(error instanceof Error ? error.message : String(error), () => void load()),
        );
    }
  };

  /** @param {HTMLButtonElement} button */
  const more = async (button) => {
    button.disabled = true;
    button.textContent = 'Loading…';
    try {
      const next = await page(state.cursor);
      if (!ctx.alive()) return;
      state.rows = [...state.rows, ...next.data];
      state.cursor = next.has_more ? (next.next_cursor ?? null) : null;
      render(null);
    } catch (error) {
      if (ctx.alive() && !(error instanceof ApiProblem && error.status === 401))
        render(error instanceof Error ? error.message : String(error));
    }
  };

  /** @param {string | null} moreError */
  function render(moreError) {
    if (!state.rows.length) {
      mount(
        body,
        emptyState({
          icon: 'users',
          title: 'No lead enrolled',
          message: 'Leads enrolled when the sequence is launched (or later) show up here.',
        }),
      );
      return;
    }
    const head = ['Lead', 'Status', 'Next step', 'Mailbox', 'Enrolled'].map((t) => h('th', { scope: 'col', text: t }));
    const button = state.cursor
      ? /** @type {HTMLButtonElement} */ (
          h('button', { type: 'button', class: 'btn btn-secondary btn-sm', text: 'Load more' })
        )
      : null;
    button?.addEventListener('click', () => void more(button));
    const n = state.rows.length;
    mount(
      body,
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'table' },
          h('caption', { class: 'sr-only', text: `Enrolled leads (${n} shown)` }),
          h('thead', null, h('tr', null, head)),
          h(
            'tbody',
            null,
            state.rows.map((e) => row(e, mailboxName, ctx.navigate)),
          ),
        ),
      ),
      moreError
        ? h('div', { class: 'error-state' }, banner('error', moreError, { title: 'Could not load more' }))
        : null,
      h(
        'div',
        { class: 'card-footer footer-row' },
        h('span', { text: `${n} ${n === 1 ? 'lead' : 'leads'}${state.cursor ? ' shown' : ''}` }),
        button,
      ),
    );
  }

  void load();
  return card;
}

/** @param {any} e a SequenceEnrollment @param {(id: string) => string} mailboxName @param {(path: string) => void} navigate */
function row(e, mailboxName, navigate) {
  const s = STATUSES[e.status] ?? { label: e.status, tone: 'gray' };
  const next =
    e.status === 'active' && e.next_step
      ? [
          h('span', { text: `Step ${e.next_step}` }),
          e.next_due_at ? h('span', { class: 'cell-sub', text: `Due ${fullDate(e.next_due_at)}` }) : null,
        ]
      : h('span', { class: 'muted', text: '—' });
  return h(
    'tr',
    { dataset: { enrollmentId: e.id, status: e.status } },
    h(
      'th',
      { scope: 'row', class: 'cell-primary' },
      e.lead_id
        ? appLink(navigate, `/admin/leads/${encodeURIComponent(e.lead_id)}`, e.email ?? e.lead_id)
        : h('span', { class: 'muted', text: '(lead deleted)' }),
    ),
    h(
      'td',
      null,
      badge(s.label, s.tone),
      e.stop_reason ? h('span', { class: 'cell-sub', text: e.stop_reason.replaceAll('_', ' ') }) : null,
    ),
    h('td', null, next),
    h('td', { text: e.connector_id ? mailboxName(e.connector_id) : '—' }),
    h('td', null, timeElement(e.enrolled_at)),
  );
}
