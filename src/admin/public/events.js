// Settings → Events: the workspace's event log (what changed, who did it, and the payload webhooks carry),
// oldest first as the API keeps it, a page at a time, filtered by type (`lead.*`, `member.added`). The filter
// lives in the query string so a filtered log can be shared. Admins only, like the API.
import './webhooks.css';
import { allPages, ApiProblem } from './api.js';
import { banner, h, mount } from './dom.js';
import { fullDate } from './format.js';
import { input } from './forms.js';
import { adminOnlyNotice, emptyState, errorState, loadingState, pageHeader } from './shell.js';
import { parseEventTypes } from './webhook-dialogs.js';

const PATH = '/admin/events';
const PAGE = 50;

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 */
export function eventsPage(main, ctx) {
  document.title = 'Events · Settings · Agent Platform';
  const description =
    'Everything that changed in the workspace, oldest first: the same events webhook endpoints receive. Filter by type to follow one kind of change.';
  if (!ctx.isAdmin) {
    mount(
      main,
      pageHeader({ title: 'Events', description }),
      adminOnlyNotice({
        title: 'The event log is admin-only',
        message: 'Only workspace admins and the owner can read the event log.',
        me: ctx.me,
      }),
    );
    return;
  }
  /** @type {{ types: string[], events: any[], cursor: string | null, people: Map<string, string> | null }} */
  const state = {
    types: parseEventTypes(new URLSearchParams(location.search).get('type') ?? ''),
    events: [],
    cursor: null,
    people: null,
  };
  const filter = input({
    type: 'search',
    name: 'type',
    id: 'event-type-filter',
    class: 'input input-mono',
    placeholder: 'e.g. lead.*, member.added',
    autocomplete: 'off',
    spellcheck: 'false',
    value: state.types.join(', '),
  });
  const filterError = h('div', { class: 'form-error' });
  const form = h(
    'form',
    { class: 'events-filter', role: 'search', 'aria-label': 'Filter events' },
    h('div', { class: 'field' }, h('label', { class: 'label', for: filter.id, text: 'Event types' }), filter),
    h('button', { type: 'submit', class: 'btn btn-secondary', text: 'Filter' }),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    state.types = parseEventTypes(filter.value);
    const query = state.types.length ? `?type=${encodeURIComponent(state.types.join(','))}` : '';
    history.replaceState(null, '', `${PATH}${query}`);
    void load();
  });
  const list = h('div', { 'aria-live': 'polite' });
  mount(
    main,
    pageHeader({ title: 'Events', description }),
    h('section', { class: 'card', 'aria-label': 'Event log' }, form, filterError, list),
  );
  void load();

  /** Members' names for the events they caused; the log still shows without them. */
  async function members() {
    const list = await allPages((c) => ctx.api.list_members({ limit: 100, cursor: c ?? undefined })).catch(() => []);
    return new Map(list.map((m) => /** @type {[string, string]} */ ([m.user_id, m.name || m.email])));
  }

  /** @param {string | null} cursor */
  function fetchPage(cursor) {
    return ctx.api.list_events({
      limit: PAGE,
      ...(state.types.length ? { type: state.types } : {}),
      ...(cursor ? { cursor } : {}),
    });
  }

  async function load() {
    mount(filterError);
    mount(list, loadingState('Loading events…'));
    try {
      const [page, people] = await Promise.all([fetchPage(null), state.people ?? members()]);
      if (!ctx.alive()) return;
      state.people = people;
      state.events = page.data;
      state.cursor = page.has_more ? (page.next_cursor ?? null) : null;
      render();
    } catch (error) {
      if (!ctx.alive()) return;
      if (error instanceof ApiProblem && (error.status === 400 || error.status === 422) && state.types.length) {
        filter.setAttribute('aria-invalid', 'true');
        mount(filterError, banner('error', error.message, { title: 'That filter does not work' }));
        mount(list);
        return;
      }
      mount(
        list,
        errorState(error instanceof Error ? error.message : String(error), () => void load()),
      );
    }
  }

  /** @param {HTMLButtonElement} button */
  async function more(button) {
    if (!state.cursor) return;
    button.disabled = true;
    button.textContent = 'Loading…';
    try {
      const page = await fetchPage(state.cursor);
      if (!ctx.alive()) return;
      state.events.push(...page.data);
      state.cursor = page.has_more ? (page.next_cursor ?? null) : null;
      render();
    } catch (error) {
      button.disabled = false;
      button.textContent = 'Load newer events';
      mount(filterError, banner('error', error instanceof Error ? error.message : String(error)));
    }
  }

  function render() {
    filter.removeAttribute('aria-invalid');
    if (!state.events.length) {
      mount(
        list,
        emptyState({
          icon: 'activity',
          title: state.types.length ? 'No events of these types' : 'No events yet',
          message: state.types.length
            ? 'Nothing of these types has happened in this workspace. Clear the filter to see every event.'
            : 'Events appear here as the workspace changes: keys created, leads added, sequences sent, replies received.',
        }),
      );
      return;
    }
    const moreButton = state.cursor
      ? h('button', {
          type: 'button',
          class: 'btn btn-secondary btn-sm',
          text: 'Load newer events',
          on: { click: (/** @type {Event} */ e) => void more(/** @type {HTMLButtonElement} */ (e.currentTarget)) },
        })
      : null;
    const count = state.events.length;
    mount(
      list,
      h(
        'ol',
        { class: 'event-list', 'aria-label': 'Events' },
        state.events.map((e) => eventItem(e, state.people ?? new Map())),
      ),
      h(
        'div',
        { class: 'card-footer deliveries-footer' },
        `${count} ${count === 1 ? 'event' : 'events'} shown${state.cursor ? '; newer ones follow' : ''}`,
        moreButton,
      ),
    );
  }
}

/** @param {any} e @param {Map<string, string>} people */
function eventItem(e, people) {
  const subject = subjectOf(e);
  return h(
    'li',
    { class: 'event-item', dataset: { eventId: e.id } },
    h(
      'div',
      { class: 'event-head' },
      h('time', { datetime: e.created_at, class: 'nowrap', text: fullDate(e.created_at) }),
      h('code', { class: 'event-type', text: e.type }),
      subject ? h('span', { class: 'event-subject' }, subject.kind, ' ', h('code', { text: subject.id })) : null,
      h('span', { class: 'event-actor', text: actorText(e.actor, people) }),
    ),
    h(
      'details',
      { class: 'event-payload' },
      h('summary', { text: 'Payload' }),
      h('pre', { tabIndex: 0, 'aria-label': `Payload of ${e.type}`, text: JSON.stringify(e.data, null, 2) }),
    ),
  );
}

/** The resource an event is about: `data.id`, or the `<resource>_id` its type names. @param {any} e */
function subjectOf(e) {
  const resource = String(e.type).split('.')[0];
  const data = e.data ?? {};
  const id =
    typeof data.id === 'string' ? data.id : typeof data[`${resource}_id`] === 'string' ? data[`${resource}_id`] : null;
  return id ? { kind: resource.replaceAll('_', ' '), id } : null;
}

/** @param {{ type?: string, id?: string | null } | undefined} actor @param {Map<string, string>} people */
function actorText(actor, people) {
  if (!actor?.type) return '';
  const name = actor.type === 'user' && actor.id ? people.get(actor.id) : undefined;
  if (name) return `by ${name}`;
  const who =
    { user: 'a member', api_key: 'an API key', operator: 'the operator', system: 'the service' }[actor.type] ??
    actor.type;
  return `by ${who}${actor.id ? ` (${actor.id})` : ''}`;
}
