// Accepting an invitation. A new person enters the one-time token an admin handed over, a name and a
// password (accept_invitation), which creates the account. Someone who already has an account signs
// in with it and accepts with that login (accept_invitation_as_me): the join form never checks an
// existing account's password, so whoever holds an invitation cannot use it to guess one.
import { ApiProblem } from './api.js';
import { banner, h, mount } from './dom.js';
import { applyFieldErrors, field, input, submitButton } from './forms.js';
import { authCard } from './sign-in.js';

/**
 * @param {HTMLElement} root
 * @param {{ api: import('./api.js').Api, onSignedIn: (token: string) => void, navigate: (path: string) => void }} options
 */
export function joinPage(root, options) {
  const token = input({
    type: 'text',
    name: 'token',
    autocomplete: 'off',
    required: true,
    maxlength: '200',
    spellcheck: 'false',
    class: 'input input-mono',
  });
  const slot = h('div');
  const back = h('a', {
    href: '/admin',
    class: 'link',
    text: 'Sign in',
    on: { click: (/** @type {MouseEvent} */ e) => (e.preventDefault(), options.navigate('/admin')) },
  });
  const tokenField = field({
    label: 'Invitation token',
    control: token,
    hint: 'The token an admin of the workspace gave you (starts with inv_).',
  });
  mount(
    root,
    authCard('join-title', 'Join a workspace', 'Accept the invitation an admin sent you.', [
      slot,
      h('p', { class: 'auth-footer' }, 'Already a member? ', back),
    ]),
  );
  showNewAccount();
  token.focus();

  /** @param {HTMLButtonElement} submit @param {HTMLElement} errorSlot @param {HTMLFormElement} form @param {() => Promise<string>} action */
  async function attempt(submit, errorSlot, form, action) {
    submit.disabled = true;
    mount(errorSlot);
    try {
      options.onSignedIn(await action());
    } catch (error) {
      if (error instanceof ApiProblem && error.code === 'account_exists') return showExistingAccount(error.message);
      mount(
        errorSlot,
        banner('error', error instanceof ApiProblem ? applyFieldErrors(form, error) : 'Joining failed.'),
      );
      submit.disabled = false;
    }
  }

  function showNewAccount() {
    const name = input({ type: 'text', name: 'name', autocomplete: 'name', required: true, maxlength: '200' });
    const password = input({
      type: 'password',
      name: 'password',
      autocomplete: 'new-password',
      required: true,
      minlength: '8',
      maxlength: '1024',
    });
    const submit = submitButton('Join workspace', { class: 'btn btn-primary btn-block' });
    const errorSlot = h('div', { class: 'form-error' });
    const existing = h('button', {
      type: 'button',
      class: 'btn btn-secondary btn-block',
      text: 'I already have an account',
      on: { click: () => showExistingAccount(null) },
    });
    const form = /** @type {HTMLFormElement} */ (
      h(
        'form',
        { class: 'auth-form', 'aria-labelledby': 'join-title' },
        tokenField,
        field({ label: 'Your name', control: name }),
        field({ label: 'Password', control: password, hint: 'At least 8 characters, for your new account.' }),
        errorSlot,
        submit,
        existing,
      )
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void attempt(submit, errorSlot, form, async () => {
        const session = await options.api.accept_invitation({
          token: token.value.trim(),
          name: name.value.trim(),
          password: password.value,
        });
        return session.login.access_token;
      });
    });
    mount(slot, form);
  }

  /** @param {string | null} reason */
  function showExistingAccount(reason) {
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
    const submit = submitButton('Sign in and join', { class: 'btn btn-primary btn-block' });
    const errorSlot = h('div', { class: 'form-error' });
    const notice = banner(
      'info',
      reason ??
        'Sign in with the account the invitation was sent to; the invitation is then accepted with that sign-in.',
    );
    const form = /** @type {HTMLFormElement} */ (
      h(
        'form',
        { class: 'auth-form', 'aria-labelledby': 'join-title' },
        notice,
        tokenField,
        field({ label: 'Email', control: email }),
        field({ label: 'Password', control: password }),
        errorSlot,
        submit,
      )
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void attempt(submit, errorSlot, form, async () => {
        const login = await options.api.login({ email: email.value.trim(), password: password.value });
        const session = await options.api
          .withBearer(login.access_token)
          .accept_invitation_as_me({ token: token.value.trim() });
        return session.login.access_token;
      });
    });
    mount(slot, form);
    email.focus();
  }
}

/**
 * Signed in with an account that belongs to no workspace (its person was removed from the last one):
 * the API answers 403 no_workspace to everything but accepting an invitation, so that is all this offers.
 * @param {HTMLElement} root
 * @param {{ api: import('./api.js').Api, login: string, onSignedIn: (token: string) => void, signOut: () => void }} options
 */
export function noWorkspacePage(root, options) {
  const token = input({
    type: 'text',
    name: 'token',
    autocomplete: 'off',
    required: true,
    maxlength: '200',
    spellcheck: 'false',
    class: 'input input-mono',
  });
  const submit = submitButton('Join workspace', { class: 'btn btn-primary btn-block' });
  const errorSlot = h('div', { class: 'form-error' });
  const notice = banner(
    'info',
    'Your account does not belong to any workspace now. Ask an admin of a workspace for an invitation, then enter its token to join.',
  );
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'auth-form', 'aria-labelledby': 'no-workspace-title' },
      notice,
      field({ label: 'Invitation token', control: token, hint: 'Starts with inv_.' }),
      errorSlot,
      submit,
    )
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    mount(errorSlot);
    try {
      const session = await options.api
        .withBearer(options.login)
        .accept_invitation_as_me({ token: token.value.trim() });
      options.onSignedIn(session.login.access_token);
    } catch (error) {
      mount(
        errorSlot,
        banner('error', error instanceof ApiProblem ? applyFieldErrors(form, error) : 'Joining failed.'),
      );
      submit.disabled = false;
    }
  });
  const signOut = h('button', {
    type: 'button',
    class: 'btn btn-secondary btn-block',
    text: 'Sign out',
    on: { click: () => options.signOut() },
  });
  mount(
    root,
    authCard('no-workspace-title', 'Join a workspace', 'You are signed in, but not to a workspace.', [form, signOut]),
  );
  token.focus();
}
