// The signed-in session. The bearer JWT lives in sessionStorage: it stays with this tab (a reload keeps you
// signed in), is never sent as a cookie and never appears in a URL. What outlives the tab and the JWT's 15
// minutes is the server's panel session: an httpOnly cookie on /admin that this script cannot read, which
// mints a new JWT (refreshSession). These are the panel's only calls outside the API (they are not part of its
// contract, so the generated SDK has no method for them). localStorage keeps only when that session ends,
// so a tab that has none does not ask for a refresh it cannot get.
const KEY = 'admin.session.token';
const UNTIL = 'admin.session.until';

/** @returns {string | null} */
export function loadToken() {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** @param {string} token */
export function saveToken(token) {
  try {
    sessionStorage.setItem(KEY, token);
  } catch {
    // Storage can be disabled; the token then lives only in memory for this page.
  }
}

export function clearToken() {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing stored.
  }
}

/** @param {string | null} until */
function rememberSession(until) {
  try {
    if (until) localStorage.setItem(UNTIL, until);
    else localStorage.removeItem(UNTIL);
  } catch {
    // Without storage a new tab signs in again; nothing else changes.
  }
}

/** Whether this browser may have a panel session: one was started here and has not ended. */
export function hasSession() {
  try {
    const until = localStorage.getItem(UNTIL);
    return until !== null && Date.parse(until) > Date.now();
  } catch {
    return false;
  }
}

/** The key other tabs watch (a `storage` event) to learn that the session ended. */
export const SESSION_KEY = UNTIL;

/** @param {string} path @param {{ method: string, token?: string }} options */
function sessionCall(path, options) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  // Same-origin fetches send the cookie and an Origin header, which the server requires (CSRF).
  return fetch(path, { method: options.method, headers, credentials: 'same-origin', cache: 'no-store' });
}

/**
 * Starts the panel session for a new login. Failing leaves this tab signed in for the JWT's lifetime only
 * (a login with no workspace has no panel session).
 * @param {string} token
 */
export async function startServerSession(token) {
  try {
    const res = await sessionCall('/admin/session', { method: 'POST', token });
    if (!res.ok) return;
    const body = await res.json();
    rememberSession(typeof body.expires_at === 'string' ? body.expires_at : null);
  } catch {
    // Offline: the tab keeps its JWT.
  }
}

/** A new JWT from the panel session, or null when there is none (signed out, expired, revoked). */
export async function refreshSession() {
  if (!hasSession()) return null;
  try {
    const res = await sessionCall('/admin/session/refresh', { method: 'POST' });
    if (res.status === 401) rememberSession(null);
    if (!res.ok) return null;
    const body = await res.json();
    return typeof body.access_token === 'string' ? body.access_token : null;
  } catch {
    return null;
  }
}

/** Sign-out: the server deletes the session and clears the cookie; other tabs hear of it through storage. */
export async function endServerSession() {
  rememberSession(null);
  try {
    await sessionCall('/admin/session', { method: 'DELETE' });
  } catch {
    // Offline: the server's session lives on until it expires, but this browser no longer offers it.
  }
}
