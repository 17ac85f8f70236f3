// Creating an account (the signup operation): a person with no account yet gets one and a workspace
// they own, and is signed in with the login the answer carries, so the next step (an API key for an
// agent) is one page away. Refusals show the API's words, with the fields it names marked.
import { ApiProblem } from './api.js';
import { banner, h, mount } from './dom.js';
import { applyFieldErrors, field, input, submitButton } from './forms.js';
import { authCard } from './sign-in.js';

/**
 * @param {HTMLElement} root
 * @param {{ api: import('./api.js').Api, onSignedIn: (token: string) => void, navigate: (path: string) => void }} options
 */
export function signUpPage(root, options) {
  const name = input({ type: 'text', name: 'name', autocomplete: 'name', required: true, maxlength: '200' });
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
    autocomplete: 'new-password',
    required: true,
    minlength: '8',
    maxlength: '1024',
  });
  const workspace = input({
    type: 'text',
    name: 'workspace_name',
    autocomplete: 'organization',
    required: true,
    maxlength: '200',
  });
  const submit = submitButton('Create account', { class: 'btn btn-primary btn-block' });
  const errorSlot = h('div', { class: 'form-error' });
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'auth-form', 'aria-labelledby': 'sign-up-title' },
      field({ label: 'Your name', control: name }),
      field({ label: 'Email', control: email }),
      field({ label: 'Password', control: password, hint: 'At least 8 characters.' }),
      field({
        label: 'Workspace name',
        control: workspace,
        hint: 'Your team or company; you can invite others to it.',
      }),
      errorSlot,
      submit,
    )
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    submit.textContent = 'Creating account…';
    mount(errorSlot);
    try {
      const body = {
        name: name.value.trim(),
        email: email.value.trim(),
        password: password.value,
        workspace_name: workspace.value.trim(),
      };
      const session = await options.api.signup(body);
      options.onSignedIn(session.login.access_token);
    } catch (error) {
      mount(
        errorSlot,
        banner('error', error instanceof ApiProblem ? applyFieldErrors(form, error) : 'Creating the account failed.'),
      );
      submit.disabled = false;
      submit.textContent = 'Create account';
      const invalid = /** @type {HTMLElement | null} */ (form.querySelector('[aria-invalid="true"]'));
      (invalid ?? name).focus();
    }
  });
  const signIn = h('a', {
    href: '/admin',
    class: 'link',
    text: 'Sign in',
    on: { click: (/** @type {MouseEvent} */ e) => (e.preventDefault(), options.navigate('/admin')) },
  });
  const subtitle = 'A new workspace, owned by you. Then create an API key for your agents.';
  mount(
    root,
    authCard('sign-up-title', 'Create an account', subtitle, [
      form,
      h('p', { class: 'auth-footer' }, 'Already have an account? ', signIn),
    ]),
  );
  name.focus();
}
