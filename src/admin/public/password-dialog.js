// Changing your own password (change_password). The service ends every panel session of the person, so this
// browser starts a new one with the JWT it holds (onChanged); other browsers must sign in again.
import { ApiProblem } from './api.js';
import { busy, openDialog } from './dialogs.js';
import { h } from './dom.js';
import { applyFieldErrors, field, input, submitButton } from './forms.js';

/**
 * @param {{ api: import('./api.js').Api, onChanged: () => Promise<void> }} options
 */
export function changePasswordDialog(options) {
  const d = openDialog({ title: 'Change your password' });
  const current = input({
    type: 'password',
    name: 'current_password',
    autocomplete: 'current-password',
    required: true,
    maxlength: '1024',
  });
  const next = input({
    type: 'password',
    name: 'new_password',
    autocomplete: 'new-password',
    required: true,
    minlength: '8',
    maxlength: '1024',
  });
  const errorSlot = h('div', { class: 'dialog-error' });
  const submit = submitButton('Change password');
  const cancel = h('button', {
    type: 'button',
    class: 'btn btn-secondary',
    text: 'Cancel',
    on: { click: () => d.close() },
  });
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'dialog-form' },
      field({ label: 'Current password', control: current }),
      field({
        label: 'New password',
        control: next,
        hint: 'At least 8 characters. Other browsers signed in as you will have to sign in again.',
      }),
      errorSlot,
      h('div', { class: 'dialog-actions' }, cancel, submit),
    )
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const changed = await busy(submit, errorSlot, 'Changing…', async () => {
      try {
        await options.api.change_password({ current_password: current.value, new_password: next.value });
        return true;
      } catch (error) {
        throw error instanceof ApiProblem ? new Error(applyFieldErrors(form, error)) : error;
      }
    });
    if (!changed) return;
    current.value = '';
    next.value = '';
    await options.onChanged();
    showDone();
  });
  d.setContent([form]);

  function showDone() {
    d.setTitle('Password changed');
    const done = h('button', {
      type: 'button',
      class: 'btn btn-primary',
      text: 'Done',
      on: { click: () => d.close() },
    });
    d.setContent(
      [
        h(
          'p',
          { class: 'dialog-text', role: 'status' },
          'Your password was changed. Other browsers were signed out; this one stays signed in.',
        ),
        h('div', { class: 'dialog-actions' }, done),
      ],
      done,
    );
  }
}
