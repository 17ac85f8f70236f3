// The signed-in layout: top bar (workspace, user, sign-out), the navigation (Sequences, Settings) and
// the main region, plus the pieces every page shares (page header, admin-only notice, loading and empty states).
import { badge, banner, h, icon, mount } from './dom.js';
import { initials, roleLabel } from './format.js';

/** The sidebar: one labelled navigation per group. */
export const navGroups = [
  {
    label: 'Outreach',
    items: [
      { path: '/admin/leads', label: 'Leads', icon: /** @type {const} */ ('users') },
      { path: '/admin/knowledge', label: 'Knowledge', icon: /** @type {const} */ ('book') },
      { path: '/admin/sequences', label: 'Sequences', icon: /** @type {const} */ ('chart') },
      { path: '/admin/approvals', label: 'Approvals', icon: /** @type {const} */ ('check') },
      { path: '/admin/sent-messages', label: 'Sent messages', icon: /** @type {const} */ ('send') },
      { path: '/admin/replies', label: 'Replies', icon: /** @type {const} */ ('inbox') },
    ],
  },
  {
    label: 'Agents',
    items: [{ path: '/admin/agent-runs', label: 'Agent runs', icon: /** @type {const} */ ('bot') }],
  },
  {
    label: 'Content',
    items: [{ path: '/admin/blog-posts', label: 'Blog posts', icon: /** @type {const} */ ('mail') }],
  },
  {
    label: 'Ads',
    items: [{ path: '/admin/ad-campaigns', label: 'Campaigns', icon: /** @type {const} */ ('send') }],
  },
  {
    label: 'Webinars',
    items: [{ path: '/admin/webinars', label: 'Registrants', icon: /** @type {const} */ ('users') }],
  },
  {
    label: 'Settings',
    items: [
      { path: '/admin/workspace', label: 'Workspace', icon: /** @type {const} */ ('settings') },
      { path: '/admin/api-keys', label: 'API keys', icon: /** @type {const} */ ('key') },
      { path: '/admin/members', label: 'Members', icon: /** @type {const} */ ('users') },
      { path: '/admin/connectors', label: 'Connectors', icon: /** @type {const} */ ('plug') },
      { path: '/admin/webhooks', label: 'Webhooks', icon: /** @type {const} */ ('webhook') },
      { path: '/admin/events', label: 'Events', icon: /** @type {const} */ ('activity') },
    ],
  },
];

/**
 * `changePassword` is offered only to a person (not to a session signed in with an API key).
 * @param {{ me: any, path: string, navigate: (path: string) => void, signOut: () => void, changePassword?: () => void }} options
 * @returns {{ shell: HTMLElement, main: HTMLElement }}
 */
export function renderShell(options) {
  const { me } = options;
  const main = h('main', { id: 'main', class: 'main', tabIndex: -1 });
  const logo = h('img', {
    src: new URL('./icon.svg', import.meta.url).pathname,
    alt: '',
    class: 'brand-logo',
    width: '28',
    height: '28',
  });
  const userName = me.user?.name ?? 'API key';
  const topbar = h(
    'header',
    { class: 'topbar' },
    h(
      'a',
      { class: 'brand', href: '/admin/api-keys', on: { click: linkHandler(options.navigate) } },
      logo,
      h('span', { class: 'brand-name', text: 'Agent Platform' }),
    ),
    h('span', { class: 'topbar-sep', 'aria-hidden': 'true', text: '/' }),
    h('span', { class: 'workspace-name', title: 'Workspace', text: me.workspace.name }),
    h(
      'div',
      { class: 'topbar-user' },
      h('span', { class: 'avatar', 'aria-hidden': 'true', text: initials(userName, me.user?.email) }),
      h(
        'span',
        { class: 'user-text' },
        h('span', { class: 'user-name', text: userName }),
        h('span', { class: 'user-email', text: me.user?.email ?? '' }),
      ),
      badge(roleLabel(me.role), me.role === 'member' ? 'gray' : 'indigo'),
      options.changePassword && me.user
        ? h(
            'button',
            {
              type: 'button',
              class: 'btn btn-ghost btn-sm',
              title: 'Change password',
              'aria-label': 'Change password',
              on: { click: options.changePassword },
            },
            icon('lock'),
          )
        : null,
      h(
        'button',
        { type: 'button', class: 'btn btn-ghost btn-sm', on: { click: options.signOut } },
        icon('logout'),
        h('span', { class: 'btn-label', text: 'Sign out' }),
      ),
    ),
  );
  const groups = navGroups.map((group) => {
    const links = group.items.map((item) =>
      h(
        'li',
        null,
        h(
          'a',
          {
            href: item.path,
            class: 'nav-link',
            'aria-current': item.path === options.path || options.path.startsWith(`${item.path}/`) ? 'page' : null,
            on: { click: linkHandler(options.navigate) },
          },
          icon(item.icon),
          h('span', { text: item.label }),
        ),
      ),
    );
    return h(
      'nav',
      { class: 'nav-group', 'aria-label': group.label },
      h('h2', { class: 'sidebar-heading', text: group.label }),
      h('ul', { class: 'nav-list' }, links),
    );
  });
  const sidebar = h('div', { class: 'sidebar' }, groups);
  const shell = h('div', { class: 'shell' }, topbar, h('div', { class: 'layout' }, sidebar, main));
  return { shell, main };
}

/** In-app navigation for plain clicks; modified clicks (new tab, etc.) keep the browser's behaviour. @param {(path: string) => void} navigate */
function linkHandler(navigate) {
  /** @param {MouseEvent} event */
  return (event) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    navigate(/** @type {HTMLAnchorElement} */ (event.currentTarget).pathname);
  };
}

/**
 * @param {{ title: string, description: string, action?: HTMLElement | null }} options
 */
export function pageHeader(options) {
  return h(
    'div',
    { class: 'page-header' },
    h(
      'div',
      { class: 'page-heading' },
      h('h1', { class: 'page-title', tabIndex: -1, text: options.title }),
      h('p', { class: 'page-description', text: options.description }),
    ),
    options.action ?? null,
  );
}

/**
 * What a member who is not an admin sees instead of the management forms.
 * @param {{ title: string, message: string, me: any }} options
 */
export function adminOnlyNotice(options) {
  return h(
    'section',
    { class: 'card empty-state locked', 'aria-labelledby': 'admin-only-title' },
    h('span', { class: 'empty-icon' }, icon('lock')),
    h('h2', { id: 'admin-only-title', class: 'empty-title', text: options.title }),
    h('p', { class: 'empty-text', text: options.message }),
    h(
      'p',
      { class: 'empty-text muted' },
      'You are signed in as ',
      h('strong', { text: roleLabel(options.me.role) }),
      ` of ${options.me.workspace.name}.`,
    ),
  );
}

/** @param {string} label */
export function loadingState(label) {
  return h(
    'div',
    { class: 'loading-state', role: 'status', 'aria-live': 'polite' },
    h('span', { class: 'spinner', 'aria-hidden': 'true' }),
    h('span', { text: label }),
  );
}

/**
 * @param {{ icon: Parameters<typeof icon>[0], title: string, message: string, action?: HTMLElement }} options
 */
export function emptyState(options) {
  return h(
    'div',
    { class: 'empty-state' },
    h('span', { class: 'empty-icon' }, icon(options.icon)),
    h('h2', { class: 'empty-title', text: options.title }),
    h('p', { class: 'empty-text', text: options.message }),
    options.action ?? null,
  );
}

/** @param {string} message @param {() => void} retry */
export function errorState(message, retry) {
  return h(
    'div',
    { class: 'error-state' },
    banner('error', message, { title: 'Could not load this page' }),
    h('button', { type: 'button', class: 'btn btn-secondary', text: 'Try again', on: { click: retry } }),
  );
}

/** Moves focus to the page title so keyboard and screen-reader users land on the new page. @param {HTMLElement} main */
export function focusTitle(main) {
  const title = main.querySelector('h1');
  if (title instanceof HTMLElement) title.focus({ preventScroll: true });
}

/**
 * A cursor list's card: its table in the scroll wrapper, the error of a failed "Load more", and the footer with
 * how many are shown and the button while there are more.
 * @param {HTMLElement} card
 * @param {{ table: HTMLElement, count: number, nouns: [string, string], hasMore: boolean, moreError: string | null, onMore: (button: HTMLButtonElement) => void }} options
 */
export function mountPagedTable(card, options) {
  const { count, nouns } = options;
  const more = options.hasMore
    ? /** @type {HTMLButtonElement} */ (
        h('button', { type: 'button', class: 'btn btn-secondary btn-sm', text: 'Load more' })
      )
    : null;
  more?.addEventListener('click', () => options.onMore(more));
  mount(
    card,
    h('div', { class: 'table-wrap' }, options.table),
    options.moreError
      ? h(
          'div',
          { class: 'error-state' },
          banner('error', options.moreError, { title: `Could not load more ${nouns[1]}` }),
        )
      : null,
    h(
      'div',
      { class: 'card-footer footer-row' },
      h('span', { text: `${count} ${count === 1 ? nouns[0] : nouns[1]}${options.hasMore ? ' shown' : ''}` }),
      more,
    ),
  );
}
