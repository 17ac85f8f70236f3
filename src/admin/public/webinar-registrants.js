// Webinars → Registrants: one webinar's registrants (the webinar picked from the workspace's list, or named
// in the link: ?webinar_id=web_…), oldest first, with how each registered, what mail each was sent (a
// failed send with its reason) and whether they joined.
import { allPages, ApiProblem } from './api.js';
import { badge, h, mount } from './dom.js';
import { timeElement } from './format.js';
import { select } from './forms.js';
import { emptyState, errorState, loadingState, pageHeader } from './shell.js';

const PATH = '/admin/webinars';

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 */
export function webinarRegistrantsPage(main, ctx) {
  document.title = 'Registrants · Webinars · Agent Platform';
  const state = { webinarId: new URLSearchParams(location.search).get('webinar_id'), load: 0 };
  const description =
    'Who registered for a webinar, through its public page or an agent, what mail each was sent, and who used their join link.';
  const picker = h('div', { class: 'filters', role: 'group', 'aria-label': 'Webinar' });
  const card = h('section', { class: 'card', 'aria-label': 'Registrants' });
  mount(main, pageHeader({ title: 'Webinar registrants', description }), picker, card);
  void start();

  async function start() {
    mount(card, loadingState('Loading webinars…'));
    try {
      const page = await ctx.api.list_webinars({ limit: 100 });
      if (!ctx.alive()) return;
      if (!page.data.length) {
        mount(
          card,
          emptyState({
            icon: 'users',
            title: 'No webinars yet',
            message: 'Schedule one with the schedule_webinar tool; its registrants show up here.',
          }),
        );
        return;
      }
      state.webinarId ??= page.data[0].id;
      const choices = page.data.map((/** @type {any} */ w) => ({ value: w.id, label: `${w.title} (${w.status})` }));
      const chooser = select(
        { name: 'webinar', id: 'webinar-filter', class: 'input select select-sm' },
        choices,
        state.webinarId,
      );
      chooser.addEventListener('change', () => {
        state.webinarId = chooser.value;
        history.replaceState(null, '', `${PATH}?webinar_id=${encodeURIComponent(chooser.value)}`);
        void load();
      });
      mount(picker, h('label', { class: 'label', for: chooser.id, text: 'Webinar' }), chooser);
      await load();
    } catch (error) {
      if (ctx.alive() && !(error instanceof ApiProblem && error.status === 401))
        mount(
          card,
          errorState(error instanceof Error ? error.message : String(error), () => void start()),
        );
    }
  }

  /** Every registrant of the chosen webinar; a slower answer for an earlier choice is dropped. */
  async function load() {
    const current = ++state.load;
    mount(card, loadingState('Loading registrants…'));
    try {
      const id = /** @type {string} */ (state.webinarId);
      const rows = await allPages((cursor) =>
        ctx.api.list_webinar_registrants({ webinar_id: id, limit: 100, cursor: cursor ?? undefined }),
      );
      if (!ctx.alive() || current !== state.load) return;
      render(rows);
    } catch (error) {
      if (ctx.alive() && current === state.load && !(error instanceof ApiProblem && error.status === 401))
        mount(
          card,
          errorState(error instanceof Error ? error.message : String(error), () => void load()),
        );
    }
  }

  /** @param {any[]} rows */
  function render(rows) {
    if (!rows.length) {
      mount(
        card,
        emptyState({
          icon: 'users',
          title: 'No registrants yet',
          message: 'People who register on the webinar’s page, or that an agent adds, show up here.',
        }),
      );
      return;
    }
    const head = ['Email', 'Name', 'Source', 'Status', 'Registered', 'Mail', 'Joined'].map((t) =>
      h('th', { scope: 'col', text: t }),
    );
    const table = h(
      'table',
      { class: 'table' },
      h('caption', { class: 'sr-only', text: `Registrants (${rows.length})` }),
      h('thead', null, h('tr', null, head)),
      h('tbody', null, rows.map(registrantRow)),
    );
    const footer = h(
      'div',
      { class: 'card-footer footer-row' },
      h('span', { text: `${rows.length} ${rows.length === 1 ? 'registrant' : 'registrants'}` }),
    );
    mount(card, h('div', { class: 'table-wrap' }, table), footer);
  }
}

/** @param {any} r */
function registrantRow(r) {
  const name = [r.first_name, r.last_name].filter(Boolean).join(' ');
  return h(
    'tr',
    null,
    h('td', { text: r.email }),
    h('td', { text: name || '—' }),
    h('td', { text: r.source === 'page' ? 'Registration page' : 'Agent / API' }),
    h(
      'td',
      null,
      badge(r.status === 'registered' ? 'Registered' : 'Removed', r.status === 'registered' ? 'green' : 'gray'),
    ),
    h('td', null, timeElement(r.registered_at)),
    h('td', null, mailList(r.mail ?? [])),
    h('td', null, r.joined_at ? timeElement(r.joined_at) : h('span', { class: 'muted', text: 'Not yet' })),
  );
}

const MAIL_KINDS = {
  confirmation: 'Confirmation',
  update: 'Update',
  cancellation: 'Cancellation',
  reminder_24h: '24 h reminder',
  reminder_1h: '1 h reminder',
};
const MAIL_TONES = {
  sent: 'green',
  queued: 'gray',
  sending: 'indigo',
  failed: 'red',
  uncertain: 'amber',
  skipped: 'gray',
};

/** Each mail as "<kind>: <status>", the reason (and the provider's words) in its tooltip. @param {any[]} mail */
function mailList(mail) {
  if (!mail.length) return h('span', { class: 'muted', text: 'None' });
  return h(
    'ul',
    { class: 'badge-list' },
    mail.map((/** @type {any} */ m) => {
      const why = [m.reason, m.detail].filter(Boolean).join(': ');
      const kind = /** @type {Record<string, string>} */ (MAIL_KINDS)[m.kind] ?? m.kind;
      const tone =
        /** @type {Record<string, 'green' | 'gray' | 'indigo' | 'amber' | 'red'>} */ (MAIL_TONES)[m.status] ?? 'gray';
      return h(
        'li',
        why ? { title: why } : null,
        badge(`${kind}: ${m.status}${m.reason ? ` (${m.reason})` : ''}`, tone),
      );
    }),
  );
}
