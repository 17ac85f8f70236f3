// A webhook endpoint's row: its URL and description, event types, status (with failures since when), last
// success, and its actions, each named with the endpoint for screen readers ("Delete CRM sync").
import { badge, h } from './dom.js';
import { fullDate, timeElement } from './format.js';

/**
 * @param {any} e
 * @param {{
 *   open: boolean,
 *   onDeliveries: () => void,
 *   onTest: (button: HTMLButtonElement) => void,
 *   onEnable: (button: HTMLButtonElement) => void,
 *   onEdit: () => void,
 *   onDelete: () => void,
 * }} on
 */
export function endpointRow(e, on) {
  const label = e.description || e.url;
  const status =
    e.status === 'enabled'
      ? badge('Enabled', 'green')
      : badge(
          e.disabled_reason === 'failing' ? 'Disabled: failing' : 'Disabled',
          e.disabled_reason === 'failing' ? 'red' : 'gray',
        );
  const failing =
    e.failure_count > 0
      ? h('span', {
          class: 'cell-sub failure',
          text: `${e.failure_count} failed ${e.failure_count === 1 ? 'attempt' : 'attempts'}${e.failing_since ? ` since ${fullDate(e.failing_since)}` : ''}`,
        })
      : null;
  const button = (
    /** @type {string} */ text,
    /** @type {string} */ aria,
    /** @type {(b: HTMLButtonElement) => void} */ fn,
    cls = 'btn btn-secondary btn-sm',
  ) =>
    h('button', {
      type: 'button',
      class: cls,
      text,
      'aria-label': `${aria} ${label}`,
      on: { click: (/** @type {Event} */ ev) => fn(/** @type {HTMLButtonElement} */ (ev.currentTarget)) },
    });
  const deliveries = button('Deliveries', 'Deliveries of', on.onDeliveries);
  deliveries.setAttribute('aria-pressed', String(on.open));
  return h(
    'tr',
    { dataset: { endpointId: e.id }, class: e.status === 'disabled' ? 'row-disabled' : null },
    h(
      'th',
      { scope: 'row', class: 'cell-primary' },
      e.description ? h('span', { class: 'cell-title', text: e.description }) : null,
      h('code', { class: 'endpoint-url', text: e.url }),
    ),
    h(
      'td',
      null,
      h(
        'ul',
        { class: 'type-list' },
        e.event_types.map((/** @type {string} */ t) => h('li', null, h('code', { class: 'event-type', text: t }))),
      ),
    ),
    h(
      'td',
      { class: 'cell-status' },
      status,
      h(
        'span',
        { class: 'cell-sub nowrap' },
        'Last success: ',
        e.last_success_at ? timeElement(e.last_success_at, { relativeTime: true }) : 'never',
      ),
      failing,
    ),
    h(
      'td',
      { class: 'cell-actions' },
      h(
        'div',
        { class: 'row-actions' },
        deliveries,
        button('Send test', 'Send a test to', on.onTest),
        e.status === 'disabled' ? button('Enable', 'Enable', on.onEnable) : null,
        button('Edit', 'Edit', on.onEdit),
        button('Delete', 'Delete', on.onDelete, 'btn btn-ghost-danger btn-sm'),
      ),
    ),
  );
}
