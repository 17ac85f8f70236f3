// Sign-in with email and password (the login operation). A notice explains why the user is here
// (session expired, signed out); a failed login shows the API's message without saying which part was wrong.
import { ApiProblem } from './api.js';
import { banner, h, mount } from './dom.js';
import { applyFieldErrors, field, input, submitButton } from './forms.js';

/**
 * @param {HTMLElement} root
 * @param {{ api: import('./api.js').Api, notice: { kind: 'warning' | 'success', message: string } | null, email?: string | null, onSignedIn: (token: string) => void, navigate: (path: string) => void }} options
 */
export function signInPage(root, options) {
  const email = input({
    type: 'email',
    name: 'email',
    autocomplete: 'username',
    required: true,
    maxlength: '254',
    spellcheck: 'false',
  });
  const password = input({
    type: 'password',
    name: 'password',
    autocomplete: 'current-password',
    required: true,
    maxlength: '1024',
  });
  const submit = submitButton('Sign in', { class: 'btn btn-primary btn-block' });
  const errorSlot = h('div', { class: 'form-error' });
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'auth-form', 'aria-labelledby': 'sign-in-title' },
      field({ label: 'Email', control: email }),
      field({ label: 'Password', control: password }),
      errorSlot,
      submit,
    )
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    submit.textContent = 'Signing in…';
    mount(errorSlot);
    try {
      const login = await options.api.login({ email: email.value.trim(), password: password.value });
      options.onSignedIn(login.access_token);
    } catch (error) {
      const message = error instanceof ApiProblem ? applyFieldErrors(form, error) : 'Sign-in failed.';
      mount(errorSlot, banner('error', message));
      password.value = '';
      password.focus();
      submit.disabled = false;
      submit.textContent = 'Sign in';
    }
  });
  const notice = options.notice ? banner(options.notice.kind, options.notice.message) : null;
  /** @param {string} path @param {string} text */
  const link = (path, text) =>
    h('a', {
      href: path,
      class: 'link',
      text,
      on: { click: (/** @type {MouseEvent} */ e) => (e.preventDefault(), options.navigate(path)) },
    });
  const footer = [
    h('p', { class: 'auth-footer' }, 'New here? ', link('/admin/signup', 'Create an account')),
    h('p', { class: 'auth-footer' }, 'Have an invitation? ', link('/admin/join', 'Join a workspace')),
  ];
  mount(
    root,
    authCard('sign-in-title', 'Sign in to the admin panel', 'Manage API keys and members of your workspace.', [
      notice,
      form,
      ...footer,
    ]),
  );
  if (options.email) {
    email.value = options.email;
    password.focus();
  } else {
    email.focus();
  }
}

/**
 * The centred card sign-in, sign-up and join use.
 * @param {string} titleId @param {string} title @param {string} subtitle @param {Array<Node | null>} children
 */
export function authCard(titleId, title, subtitle, children) {
  const logo = h('img', {
    src: new URL('./icon.svg', import.meta.url).pathname,
    alt: '',
    class: 'auth-logo',
    width: '40',
    height: '40',
  });
  return h(
    'main',
    { id: 'main', class: 'auth' },
    h(
      'div',
      { class: 'auth-card' },
      h('div', { class: 'auth-brand' }, logo, h('span', { class: 'brand-name', text: 'Agent Platform' })),
      h('h1', { id: titleId, class: 'auth-title', tabIndex: -1, text: title }),
      h('p', { class: 'auth-subtitle', text: subtitle }),
      ...children,
    ),
  );
}
