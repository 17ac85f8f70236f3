// Accepting an invitation: the one-time token an admin handed over, a name and a password (the
// accept_invitation operation), which signs the new member in.
import { ApiProblem } from './api.js';
import { banner, h, mount } from './dom.js';
import { applyFieldErrors, field, input, submitButton } from './forms.js';
import { authCard } from './sign-in.js';

/**
 * @param {HTMLElement} root
 * @param {{ api: import('./api.js').Api, onSignedIn: (token: string) => void, navigate: (path: string) => void }} options
 */
export function joinPage(root, options) {
  const token = input({ type: 'text', name: 'token', autocomplete: 'off', required: true, maxlength: '200', spellcheck: 'false', class: 'input input-mono' });
  const name = input({ type: 'text', name: 'name', autocomplete: 'name', required: true, maxlength: '200' });
  const password = input({ type: 'password', name: 'password', autocomplete: 'new-password', required: true, minlength: '8', maxlength: '1024' });
  const submit = submitButton('Join workspace', { class: 'btn btn-primary btn-block' });
  const errorSlot = h('div', { class: 'form-error' });
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'auth-form', 'aria-labelledby': 'join-title' },
      field({ label: 'Invitation token', control: token, hint: 'The token an admin of the workspace gave you (starts with inv_).' }),
      field({ label: 'Your name', control: name }),
      field({ label: 'Password', control: password, hint: 'At least 8 characters. If you already have an account, use its password.' }),
      errorSlot,
      submit,
    )
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    mount(errorSlot);
    try {
      const session = await options.api.acceptInvitation({ token: token.value.trim(), name: name.value.trim(), password: password.value });
      options.onSignedIn(session.login.access_token);
    } catch (error) {
      mount(errorSlot, banner('error', error instanceof ApiProblem ? applyFieldErrors(form, error) : 'Joining failed.'));
      submit.disabled = false;
    }
  });
  const back = h('a', { href: '/admin', class: 'link', text: 'Sign in', on: { click: (/** @type {MouseEvent} */ e) => (e.preventDefault(), options.navigate('/admin')) } });
  mount(root, authCard('join-title', 'Join a workspace', 'Accept the invitation an admin sent you.', [form, h('p', { class: 'auth-footer' }, 'Already a member? ', back)]));
  token.focus();
}
