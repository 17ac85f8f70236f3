// The signed-in session. The bearer token lives in sessionStorage: it stays with this tab (a reload
// keeps you signed in), is never sent as a cookie and never appears in a URL.
const KEY = 'admin.session.token';

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
