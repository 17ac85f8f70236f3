// Labelled form fields with hints, and the mapping of an API problem's field errors onto them.
import { h, uniqueId } from './dom.js';

/**
 * A labelled input (or select) with an optional hint wired through aria-describedby.
 * @param {{ label: string, control: HTMLElement, hint?: string }} options
 */
export function field(options) {
  const id = options.control.id || uniqueId('field');
  options.control.id = id;
  const hint = options.hint ? h('p', { class: 'hint', id: `${id}-hint`, text: options.hint }) : null;
  if (hint) options.control.setAttribute('aria-describedby', hint.id);
  return h(
    'div',
    { class: 'field' },
    h('label', { class: 'label', for: id, text: options.label }),
    options.control,
    hint,
  );
}

/** @param {Record<string, any>} props */
export function input(props) {
  return /** @type {HTMLInputElement} */ (h('input', { class: 'input', ...props }));
}

/**
 * @param {Record<string, any>} props
 * @param {Array<{ value: string, label: string }>} choices
 * @param {string} selected
 */
export function select(props, choices, selected) {
  const options = choices.map((c) => h('option', { value: c.value, selected: c.value === selected, text: c.label }));
  return /** @type {HTMLSelectElement} */ (h('select', { class: 'input select', ...props }, options));
}

/** @param {string} label @param {Record<string, any>} [props] */
export function submitButton(label, props = {}) {
  return /** @type {HTMLButtonElement} */ (
    h('button', { type: 'submit', class: 'btn btn-primary', text: label, ...props })
  );
}

/**
 * Marks the controls named by a problem's field errors as invalid, and returns one readable message.
 * @param {HTMLFormElement} form
 * @param {import('./api.js').ApiProblem} problem
 */
export function applyFieldErrors(form, problem) {
  for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  const messages = [];
  for (const e of problem.errors ?? []) {
    const name = e.field ?? e.pointer?.split('/').pop();
    const control = name ? form.querySelector(`[name="${CSS.escape(name)}"]`) : null;
    if (control) control.setAttribute('aria-invalid', 'true');
    messages.push(name ? `${name}: ${e.message}` : e.message);
  }
  return messages.length ? `${problem.message} ${messages.join('; ')}` : problem.message;
}
