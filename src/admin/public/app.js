// The admin panel's entry: session state, client-side routing between the Settings pages, and the
// rule that any 401 from the API ends the session and returns to sign-in with a message.
import { ApiProblem, createApi } from './api.js';
import { apiKeysPage } from './api-keys.js';
import { h, mount } from './dom.js';
import { joinPage } from './join.js';
import { membersPage } from './members.js';
import { clearToken, loadToken, saveToken } from './session.js';
import { errorState, focusTitle, loadingState, renderShell } from './shell.js';
import { signInPage } from './sign-in.js';

const root = /** @type {HTMLElement} */ (document.getElementById('app'));

/** @type {{ token: string | null, me: any, generation: number }} */
const state = { token: loadToken(), me: null, generation: 0 };

const api = createApi({
  getToken: () => state.token,
  onUnauthorized: () => endSession({ kind: 'warning', message: 'Your session expired; sign in again.' }),
});

/** @type {Record<string, (main: HTMLElement, ctx: PageContext) => void>} */
const pages = { '/admin/api-keys': apiKeysPage, '/admin/members': membersPage };
const DEFAULT_PAGE = '/admin/api-keys';

/** @typedef {{ api: import('./api.js').Api, me: any, isAdmin: boolean, alive: () => boolean }} PageContext */

/** @param {string} path @param {{ replace?: boolean }} [options] */
function navigate(path, options = {}) {
  if (path !== location.pathname) history[options.replace ? 'replaceState' : 'pushState'](null, '', path);
  void render();
}

/** @param {string} token */
function startSession(token) {
  state.token = token;
  state.me = null;
  saveToken(token);
  if (!pages[location.pathname]) history.replaceState(null, '', DEFAULT_PAGE);
  void render({ focus: true });
}

/** @param {{ kind: 'warning' | 'success', message: string }} notice */
function endSession(notice) {
  if (!state.token) return;
  state.token = null;
  state.me = null;
  clearToken();
  showSignIn(notice);
}

/** @param {{ kind: 'warning' | 'success', message: string } | null} notice */
function showSignIn(notice) {
  state.generation += 1;
  document.title = 'Sign in · Agent Platform';
  if (location.pathname === '/admin/join') {
    joinPage(root, { api, onSignedIn: startSession, navigate });
    return;
  }
  signInPage(root, { api, notice, onSignedIn: startSession, navigate });
}

/** @param {{ focus?: boolean }} [options] */
async function render(options = {}) {
  if (!state.token) return showSignIn(null);
  const generation = ++state.generation;
  const alive = () => generation === state.generation && state.token !== null;
  if (!pages[location.pathname]) history.replaceState(null, '', DEFAULT_PAGE);
  if (!state.me) {
    mount(root, h('div', { class: 'boot' }, loadingState('Loading your workspace…')));
    try {
      state.me = await api.me();
    } catch (error) {
      if (!alive()) return;
      const message = error instanceof ApiProblem ? error.message : 'Something went wrong.';
      mount(root, h('div', { class: 'boot' }, errorState(message, () => void render(options))));
      return;
    }
    if (!alive()) return;
  }
  const me = state.me;
  const { shell, main } = renderShell({ me, path: location.pathname, navigate, signOut: () => endSession({ kind: 'success', message: 'You have signed out.' }) });
  mount(root, shell);
  const isAdmin = me.role === 'owner' || me.role === 'admin';
  pages[location.pathname](main, { api, me, isAdmin, alive });
  if (options.focus !== false) focusTitle(main);
}

window.addEventListener('popstate', () => void render());
void render({ focus: false });
