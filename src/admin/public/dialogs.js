// Modal dialogs on the native <dialog> element (focus trap, Escape and inert background for free),
// a confirmation step for destructive actions, and the one-time secret field with its copy button.
import { banner, h, icon, mount, uniqueId } from './dom.js';

/**
 * Opens a modal dialog. It is removed from the page when closed, so nothing it showed (a new key, an
 * invitation token) stays in the DOM; focus returns to what had it before.
 * @param {{ title: string, className?: string }} options
 */
export function openDialog(options) {
  const opener = /** @type {HTMLElement | null} */ (document.activeElement);
  const titleId = uniqueId('dialog-title');
  const title = h('h2', { class: 'dialog-title', id: titleId, text: options.title });
  const content = h('div', { class: 'dialog-content' });
  const dialog = /** @type {HTMLDialogElement} */ (
    h('dialog', { class: `dialog ${options.className ?? ''}`.trim(), 'aria-labelledby': titleId }, title, content)
  );
  /** @type {Array<() => void>} */
  const closeHandlers = [];
  dialog.addEventListener('close', () => {
    dialog.remove();
    for (const fn of closeHandlers) fn();
    // The opener may be gone (a revoked key's button): the page title is the next best place.
    const target = opener?.isConnected ? opener : document.querySelector('main h1');
    if (target instanceof HTMLElement) target.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  return {
    dialog,
    /** @param {string} text */
    setTitle(text) {
      title.textContent = text;
    },
    /** Replaces the body and focuses `focus` (or the first field or button). @param {Node[]} children @param {HTMLElement | null} [focus] */
    setContent(children, focus) {
      mount(content, ...children);
      const target = focus ?? content.querySelector('input, select, textarea, button');
      if (target instanceof HTMLElement) target.focus();
    },
    close() {
      if (dialog.open) dialog.close();
    },
    /** @param {() => void} fn */
    onClose(fn) {
      closeHandlers.push(fn);
    },
  };
}

/** @typedef {ReturnType<typeof openDialog>} DialogHandle */

/**
 * A dialog's form: its fields, the slot its error shows in, and Cancel (closes the dialog) beside the submit button.
 * @param {DialogHandle} d
 * @param {{ fields: Array<Node | null>, submit: HTMLButtonElement, novalidate?: boolean }} options
 */
export function dialogForm(d, options) {
  const errorSlot = h('div', { class: 'dialog-error' });
  const cancel = h('button', {
    type: 'button',
    class: 'btn btn-secondary',
    text: 'Cancel',
    on: { click: () => d.close() },
  });
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'dialog-form', novalidate: options.novalidate ?? false },
      options.fields,
      errorSlot,
      h('div', { class: 'dialog-actions' }, cancel, options.submit),
    )
  );
  return { form, errorSlot };
}

/**
 * Sets a button busy while `work` runs; shows its error in `errorSlot`. Returns the result, or undefined on error.
 * @template T
 * @param {HTMLButtonElement} button
 * @param {HTMLElement} errorSlot
 * @param {string} busyLabel
 * @param {() => Promise<T>} work
 */
export async function busy(button, errorSlot, busyLabel, work) {
  const label = button.textContent;
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  button.textContent = busyLabel;
  mount(errorSlot);
  try {
    return await work();
  } catch (error) {
    mount(errorSlot, banner('error', error instanceof Error ? error.message : String(error)));
    return undefined;
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
    button.textContent = label;
  }
}

/**
 * The confirmation step of a destructive action. Cancel has focus first, so Enter does not destroy.
 * @param {{ title: string, message: Array<Node | string>, confirmLabel: string, busyLabel: string, action: () => Promise<unknown> }} options
 * @returns {Promise<boolean>} whether the action ran and succeeded
 */
export function confirmDialog(options) {
  return new Promise((resolve) => {
    const d = openDialog({ title: options.title, className: 'dialog-confirm' });
    let done = false;
    const errorSlot = h('div', { class: 'dialog-error' });
    const cancel = h('button', {
      type: 'button',
      class: 'btn btn-secondary',
      text: 'Cancel',
      on: { click: () => d.close() },
    });
    const confirm = /** @type {HTMLButtonElement} */ (
      h('button', { type: 'button', class: 'btn btn-danger', text: options.confirmLabel })
    );
    confirm.addEventListener('click', async () => {
      const ok = await busy(confirm, errorSlot, options.busyLabel, async () => {
        await options.action();
        return true;
      });
      if (ok) {
        done = true;
        d.close();
      }
    });
    d.onClose(() => resolve(done));
    d.setContent(
      [
        h('p', { class: 'dialog-text' }, ...options.message),
        errorSlot,
        h('div', { class: 'dialog-actions' }, cancel, confirm),
      ],
      cancel,
    );
  });
}

/**
 * A read-only field holding a secret shown once, with a copy button and feedback announced politely.
 * @param {{ label: string, value: string, name: string }} options
 */
export function secretField(options) {
  const id = uniqueId('secret');
  const input = /** @type {HTMLInputElement} */ (
    h('input', {
      id,
      class: 'input input-mono',
      type: 'text',
      readOnly: true,
      value: options.value,
      name: options.name,
      spellcheck: 'false',
      autocomplete: 'off',
    })
  );
  input.addEventListener('focus', () => input.select());
  const status = h('span', { class: 'copy-status', role: 'status' });
  const button = h(
    'button',
    { type: 'button', class: 'btn btn-secondary btn-copy' },
    icon('copy'),
    h('span', { text: 'Copy' }),
  );
  button.addEventListener('click', async () => {
    const copied = await copyText(options.value, input);
    mount(
      status,
      copied
        ? h('span', { class: 'copy-ok' }, icon('check'), 'Copied to clipboard')
        : 'Press Ctrl+C (⌘C) to copy the selected text',
    );
  });
  return h(
    'div',
    { class: 'field' },
    h('label', { class: 'label', for: id, text: options.label }),
    h('div', { class: 'secret-row' }, input, button),
    status,
  );
}

/** @param {string} text @param {HTMLInputElement} input */
async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    input.focus();
    input.select();
    return false;
  }
}
