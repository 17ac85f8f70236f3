// One endpoint's deliveries, newest first, a page at a time: each with its event type, status and attempts;
// a row opens to show every attempt (number, time, status code, error), the next retry and the message id.
import { badge, h, mount, srOnly } from './dom.js';
import { fullDate, timeElement } from './format.js';
import { emptyState, errorState, loadingState } from './shell.js';

const PAGE = 25;

/** @param {string} status */
export function deliveryBadge(status) {
  if (status === 'succeeded') return badge('Succeeded', 'green');
  if (status === 'failed') return badge('Failed', 'red');
  if (status === 'pending') return badge('Pending', 'amber');
  return badge('Cancelled', 'gray');
}

/**
 * The deliveries panel of an endpoint; `reload()` reads the first page again.
 * @param {{ api: import('./api.js').Api, alive: () => boolean, endpoint: any, onClose: () => void }} options
 */
export function deliveriesPanel(options) {
  const { endpoint } = options;
  /** @type {{ deliveries: any[], cursor: string | null }} */
  const state = { deliveries: [], cursor: null };
  const body = h('div', { class: 'deliveries-body' });
  const refresh = h('button', {
    type: 'button',
    class: 'btn btn-secondary btn-sm',
    text: 'Refresh',
    on: { click: () => void reload() },
  });
  const close = h('button', {
    type: 'button',
    class: 'btn btn-ghost btn-sm',
    text: 'Close',
    on: { click: options.onClose },
  });
  const title = h('h2', { class: 'card-title', id: `deliveries-${endpoint.id}`, tabIndex: -1, text: 'Deliveries' });
  const element = h(
    'section',
    { class: 'card section deliveries', 'aria-labelledby': title.id, dataset: { endpointId: endpoint.id } },
    h(
      'div',
      { class: 'card-header' },
      h(
        'div',
        { class: 'card-heading' },
        title,
        h('p', { class: 'card-description' }, 'To ', h('code', { class: 'endpoint-url', text: endpoint.url })),
      ),
      h('div', { class: 'row-actions' }, refresh, close),
    ),
    body,
  );

  async function reload() {
    mount(body, loadingState('Loading deliveries…'));
    try {
      const page = await options.api.list_webhook_deliveries({ endpoint_id: endpoint.id, limit: PAGE });
      if (!options.alive()) return;
      state.deliveries = page.data;
      state.cursor = page.has_more ? (page.next_cursor ?? null) : null;
      render();
    } catch (error) {
      if (options.alive())
        mount(
          body,
          errorState(error instanceof Error ? error.message : String(error), () => void reload()),
        );
    }
  }

  /** @param {HTMLButtonElement} button */
  async function more(button) {
    if (!state.cursor) return;
    button.disabled = true;
    try {
      const page = await options.api.list_webhook_deliveries({
        endpoint_id: endpoint.id,
        limit: PAGE,
        cursor: state.cursor,
      });
      if (!options.alive()) return;
      state.deliveries.push(...page.data);
      state.cursor = page.has_more ? (page.next_cursor ?? null) : null;
      render();
    } catch (error) {
      button.disabled = false;
      button.textContent = `Could not load more: ${error instanceof Error ? error.message : String(error)} Try again`;
    }
  }

  function render() {
    if (!state.deliveries.length) {
      mount(
        body,
        emptyState({
          icon: 'send',
          title: 'No deliveries yet',
          message: 'Events this endpoint subscribes to, and test messages, appear here as they are sent.',
        }),
      );
      return;
    }
    const head = ['Event type', 'Status', 'Attempts', 'Last attempt', 'Answer'].map((t) =>
      h('th', { scope: 'col', text: t }),
    );
    const table = h(
      'table',
      { class: 'table deliveries-table' },
      h('caption', { class: 'sr-only', text: `Deliveries to ${endpoint.url}` }),
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, srOnly('Details')), head)),
      state.deliveries.map(deliveryRows),
    );
    const moreButton = state.cursor
      ? h('button', {
          type: 'button',
          class: 'btn btn-secondary btn-sm',
          text: 'Load older deliveries',
          on: { click: (/** @type {Event} */ e) => void more(/** @type {HTMLButtonElement} */ (e.currentTarget)) },
        })
      : null;
    mount(
      body,
      h('div', { class: 'table-wrap table-wrap-contained' }, table),
      h('div', { class: 'card-footer deliveries-footer' }, `${state.deliveries.length} shown`, moreButton),
    );
  }

  return { element, reload, focus: () => title.focus() };
}

/** A delivery's row and its detail row, in their own tbody so they stay together. @param {any} d */
function deliveryRows(d) {
  const detailId = `delivery-${d.id}`;
  const toggle = h('button', {
    type: 'button',
    class: 'btn btn-ghost btn-sm expand',
    'aria-expanded': 'false',
    'aria-controls': detailId,
    'aria-label': `Attempts of ${d.event_type} (${d.id})`,
    text: '▸',
  });
  const answer = d.last_status_code
    ? h('code', { text: `HTTP ${d.last_status_code}` })
    : d.last_error
      ? h('span', { class: 'failure', text: 'No answer' })
      : h('span', { class: 'muted', text: '—' });
  const detail = h(
    'tr',
    { id: detailId, class: 'delivery-detail', hidden: true },
    h('td', { colspan: '6' }, attemptDetail(d)),
  );
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    toggle.textContent = open ? '▾' : '▸';
    detail.hidden = !open;
  });
  return h(
    'tbody',
    { class: 'delivery', dataset: { deliveryId: d.id } },
    h(
      'tr',
      null,
      h('td', { class: 'cell-expand' }, toggle),
      h('th', { scope: 'row' }, h('code', { class: 'event-type', text: d.event_type })),
      h('td', null, deliveryBadge(d.status)),
      h('td', { class: 'nowrap', text: String(d.attempts) }),
      h(
        'td',
        { class: 'nowrap' },
        d.last_attempt_at
          ? timeElement(d.last_attempt_at, { relativeTime: true })
          : h('span', { class: 'muted', text: 'Not yet' }),
      ),
      h('td', { class: 'nowrap' }, answer),
    ),
    detail,
  );
}

/** The delivery's attempts, one row each, and what identifies it. @param {any} d */
function attemptDetail(d) {
  /** @type {Array<[string, Node | string]>} */
  const facts = [];
  if (d.next_attempt_at) facts.push(['Next attempt', fullDate(d.next_attempt_at)]);
  facts.push(['Queued', fullDate(d.created_at)], ['Message id', h('code', { text: d.message_id })]);
  if (d.event_id) facts.push(['Event', h('code', { text: d.event_id })]);
  return h(
    'div',
    { class: 'delivery-detail-body' },
    attemptsTable(d),
    h(
      'dl',
      { class: 'mail-meta delivery-facts' },
      facts.flatMap(([term, value]) => [h('dt', { text: term }), h('dd', null, value)]),
    ),
  );
}

/** @param {any} d */
function attemptsTable(d) {
  // Deliveries from before the attempt log keep only their last attempt.
  const log = d.attempt_log?.length
    ? d.attempt_log
    : d.last_attempt_at
      ? [{ attempt: d.attempts, status_code: d.last_status_code, error: d.last_error, attempted_at: d.last_attempt_at }]
      : [];
  if (!log.length) return h('p', { class: 'muted', text: 'Not attempted yet.' });
  const head = ['Attempt', 'Time', 'Status code', 'Error'].map((t) => h('th', { scope: 'col', text: t }));
  return h(
    'table',
    { class: 'attempts-table' },
    h('caption', { class: 'attempts-caption', text: d.attempts === 1 ? '1 attempt' : `${d.attempts} attempts` }),
    h('thead', null, h('tr', null, head)),
    h(
      'tbody',
      null,
      log.map((/** @type {any} */ a) =>
        h(
          'tr',
          null,
          h('th', { scope: 'row', text: `#${a.attempt}` }),
          h('td', { class: 'nowrap', text: fullDate(a.attempted_at) }),
          h(
            'td',
            null,
            a.status_code
              ? h('code', { text: String(a.status_code) })
              : h('span', { class: 'muted', text: 'No answer' }),
          ),
          h(
            'td',
            null,
            a.error ? h('span', { class: 'failure', text: a.error }) : h('span', { class: 'muted', text: 'None' }),
          ),
        ),
      ),
    ),
  );
}
