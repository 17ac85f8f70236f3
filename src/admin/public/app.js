// The admin panel's entry: session state, client-side routing between the pages, and the rule that a 401
// from the API first asks the panel session for a new JWT (session.js), and only then ends the session and
// returns to sign-in with a message.
// Stylesheets imported by modules are bundled into app.css (uPlot's for the charts, and any page's own).
import 'uplot/dist/uPlot.min.css';
import { ApiProblem, createApi } from './api.js';
import { apiKeysPage } from './api-keys.js';
import { blogPostsPage } from './blog-posts.js';
import { adCampaignsPage } from './ad-campaigns.js';
import { approvalsPage } from './approvals.js';
import { connectorsPage } from './connectors.js';
import { h, mount } from './dom.js';
import { joinPage, noWorkspacePage } from './join.js';
import { membersPage } from './members.js';
import { changePasswordDialog } from './password-dialog.js';
import { sentMessagesPage } from './sent-messages.js';
import { webinarRegistrantsPage } from './webinar-registrants.js';
import { leadsPage, leadPage } from './leads.js';
import { knowledgePage } from './knowledge.js';
import { sequencesPage, sequencePage } from './sequences.js';
import { repliesPage } from './replies.js';
import { agentRunsPage } from './agent-runs.js';
import { workspacePage } from './workspace.js';
import { webhooksPage } from './webhooks.js';
import { eventsPage } from './events.js';
import {
  SESSION_KEY,
  clearToken,
  endServerSession,
  hasSession,
  loadToken,
  refreshSession,
  saveToken,
  startServerSession,
} from './session.js';
import { errorState, focusTitle, loadingState, renderShell } from './shell.js';
import { signInPage } from './sign-in.js';
import { signUpPage } from './sign-up.js';

const root = /** @type {HTMLElement} */ (document.getElementById('app'));

/** @type {{ token: string | null, me: any, generation: number, path: string }} */
const state = { token: loadToken(), me: null, generation: 0, path: '' };

/** @type {Promise<string | null> | null} */
let refreshing = null;

/** A new JWT for this tab from the panel session; concurrent 401s share one refresh. */
function refreshToken() {
  refreshing ??= refreshSession().then((token) => {
    refreshing = null;
    // A session ended meanwhile (sign-out) stays ended.
    if (!token || !state.token) return null;
    state.token = token;
    saveToken(token);
    return token;
  });
  return refreshing;
}

const api = createApi({
  getToken: () => state.token,
  refresh: refreshToken,
  onUnauthorized: () => endSession({ kind: 'warning', message: 'Your session expired; sign in again.' }),
});

/** @type {Record<string, (main: HTMLElement, ctx: PageContext) => void>} */
const pages = {
  '/admin/leads': leadsPage,
  '/admin/leads/:id': leadPage,
  '/admin/knowledge': knowledgePage,
  '/admin/sequences': sequencesPage,
  '/admin/sequences/:id': sequencePage,
  '/admin/replies': repliesPage,
  '/admin/agent-runs': agentRunsPage,
  '/admin/workspace': workspacePage,
  '/admin/webhooks': webhooksPage,
  '/admin/events': eventsPage,
  '/admin/approvals': approvalsPage,
  '/admin/sent-messages': sentMessagesPage,
  '/admin/webinars': webinarRegistrantsPage,
  '/admin/blog-posts': blogPostsPage,
  '/admin/ad-campaigns': adCampaignsPage,
  '/admin/api-keys': apiKeysPage,
  '/admin/members': membersPage,
  '/admin/connectors': connectorsPage,
};
const DEFAULT_PAGE = '/admin/api-keys';

/**
 * The page for a path: an exact entry, or a `/:id` entry with the last segment as `params.id`.
 * @param {string} pathname
 * @returns {{ page: (main: HTMLElement, ctx: PageContext) => void, params: Record<string, string> } | null}
 */
function findPage(pathname) {
  const exact = pages[pathname];
  if (exact) return { page: exact, params: {} };
  const match = /^(\/admin\/[a-z-]+)\/([^/]+)$/.exec(pathname);
  const page = match ? pages[`${match[1]}/:id`] : undefined;
  if (!match || !page) return null;
  return { page, params: { id: decodeURIComponent(match[2]) } };
}

/**
 * `signal` aborts when the page is left (another page, sign-out), ending its long-running requests; `api` is
 * bound to it. `params.id` is the id of a detail page (`/admin/leads/:id`); `navigate` moves to another page.
 * @typedef {{
 *   api: import('./api.js').Api,
 *   me: any,
 *   isAdmin: boolean,
 *   alive: () => boolean,
 *   signal: AbortSignal,
 *   params: Record<string, string>,
 *   navigate: (path: string) => void,
 * }} PageContext
 */

let pageLife = new AbortController();

/** Ends the work of the page drawn before and starts a lifetime for the next one. */
function leavePage() {
  pageLife.abort();
  pageLife = new AbortController();
  return pageLife.signal;
}

/** @param {string} path @param {{ replace?: boolean }} [options] */
function navigate(path, options = {}) {
  if (path !== location.pathname) history[options.replace ? 'replaceState' : 'pushState'](null, '', path);
  void render();
}

/** A new login (sign-in, sign-up, joining): the panel session that keeps it across tabs starts first. @param {string} token */
async function startSession(token) {
  state.token = token;
  state.me = null;
  saveToken(token);
  await startServerSession(token);
  if (state.token !== token) return;
  if (!findPage(location.pathname)) history.replaceState(null, '', DEFAULT_PAGE);
  void render({ focus: true });
}

/**
 * Ends this tab's session; signing out also ends the panel session (every tab of this browser).
 * @param {{ kind: 'warning' | 'success', message: string }} notice @param {{ signOut?: boolean }} [options]
 */
function endSession(notice, options = {}) {
  if (!state.token) return;
  // The email (not the password) is kept in memory so signing in again is one field.
  const email = state.me?.user?.email ?? null;
  state.token = null;
  state.me = null;
  clearToken();
  if (options.signOut) void endServerSession();
  showSignIn(notice, email);
}

const signedOut = { kind: /** @type {const} */ ('success'), message: 'You have signed out.' };
const signOut = () => endSession(signedOut, { signOut: true });

/** @param {{ kind: 'warning' | 'success', message: string } | null} notice @param {string | null} [email] */
function showSignIn(notice, email = null) {
  state.generation += 1;
  state.path = location.pathname;
  leavePage();
  document.title = 'Sign in · Agent Platform';
  if (location.pathname === '/admin/join') {
    joinPage(root, { api, onSignedIn: startSession, navigate });
    return;
  }
  if (location.pathname === '/admin/signup') {
    document.title = 'Create an account · Agent Platform';
    signUpPage(root, { api, onSignedIn: startSession, navigate });
    return;
  }
  signInPage(root, { api, notice, email, onSignedIn: startSession, navigate });
}

/** @param {{ focus?: boolean }} [options] */
async function render(options = {}) {
  if (!state.token) return showSignIn(null);
  if (!findPage(location.pathname)) history.replaceState(null, '', DEFAULT_PAGE);
  if (state.me) {
    draw(options);
    void refreshMe();
    return;
  }
  const generation = ++state.generation;
  leavePage();
  mount(root, h('div', { class: 'boot' }, loadingState('Loading your workspace…')));
  try {
    const me = await api.get_me();
    if (generation !== state.generation) return;
    state.me = me;
  } catch (error) {
    if (generation !== state.generation || !state.token) return;
    if (error instanceof ApiProblem && error.code === 'no_workspace') {
      document.title = 'Join a workspace · Agent Platform';
      return noWorkspacePage(root, { api, login: state.token, onSignedIn: startSession, signOut });
    }
    const message = error instanceof ApiProblem ? error.message : 'Something went wrong.';
    mount(
      root,
      h(
        'div',
        { class: 'boot' },
        errorState(message, () => void render(options)),
      ),
    );
    return;
  }
  draw(options);
}

/** Renders the signed-in layout and the current page; work of the page drawn before stops mattering. @param {{ focus?: boolean }} options */
function draw(options) {
  const generation = ++state.generation;
  state.path = location.pathname;
  const signal = leavePage();
  const me = state.me;
  const { shell, main } = renderShell({
    me,
    path: location.pathname,
    navigate,
    signOut,
    // The service ended this browser's panel session with the others: the JWT in hand starts a new one.
    changePassword: () =>
      changePasswordDialog({
        api,
        onChanged: () => (state.token ? startServerSession(state.token) : Promise.resolve()),
      }),
  });
  mount(root, shell);
  const isAdmin = me.role === 'owner' || me.role === 'admin';
  const found = /** @type {NonNullable<ReturnType<typeof findPage>>} */ (findPage(location.pathname));
  found.page(main, {
    api: api.withSignal(signal),
    me,
    isAdmin,
    alive: () => generation === state.generation && state.token !== null,
    signal,
    params: found.params,
    navigate,
  });
  if (options.focus !== false) focusTitle(main);
}

/**
 * Each page view re-reads the principal: a role changed by an admin shows on the next page, and a
 * session that ended (expired, member removed) is noticed there, through the API's 401.
 */
async function refreshMe() {
  const generation = state.generation;
  try {
    const me = await api.get_me();
    if (generation !== state.generation || !state.token) return;
    const before = state.me;
    state.me = me;
    if (me.role !== before.role || me.user?.id !== before.user?.id || me.workspace.name !== before.workspace.name)
      draw({ focus: false });
  } catch {
    // A 401 has already ended the session; anything else leaves the page as it is.
  }
}

// In-page links (the skip link) fire popstate too; only a change of page re-renders.
window.addEventListener('popstate', () => {
  if (location.pathname !== state.path) void render();
});
// Another tab signed out (or found the session over): this one's JWT must not outlive it.
window.addEventListener('storage', (event) => {
  if (event.key === SESSION_KEY && event.newValue === null)
    endSession({ kind: 'warning', message: 'Your session ended in another tab; sign in again.' });
});

/** A new tab has no JWT yet: the panel session, when this browser has one, signs it in. */
async function boot() {
  if (!state.token && hasSession()) {
    mount(root, h('div', { class: 'boot' }, loadingState('Loading your workspace…')));
    const token = await refreshSession();
    if (token) {
      state.token = token;
      saveToken(token);
    }
  }
  await render({ focus: false });
}
void boot();
