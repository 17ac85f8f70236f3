// Field errors shown next to their fields: a labelled control with a hint and an error slot, and the mapping
// of an ApiProblem's `errors` (by `field`, or the last segment of `pointer`) onto those slots. What matches no
// field comes back as one message for a banner above the form.
import { h, mount, uniqueId } from './dom.js';

/**
 * A labelled control (named by its `name`) with an optional hint and the slot its error appears in.
 * @param {{ label: string, control: HTMLElement, hint?: string | Node }} options
 */
export function fieldWithError(options) {
  const control = options.control;
  const id = control.id || uniqueId('field');
  control.id = id;
  const hint = options.hint ? h('div', { class: 'hint', id: `${id}-hint` }, options.hint) : null;
  const error = h('p', {
    class: 'field-error',
    id: `${id}-error`,
    dataset: { errorFor: control.getAttribute('name') ?? '' },
  });
  control.setAttribute('aria-describedby', [hint?.id, error.id].filter(Boolean).join(' '));
  return h(
    'div',
    { class: 'field' },
    h('label', { class: 'label', for: id, text: options.label }),
    control,
    hint,
    error,
  );
}

/** @param {HTMLElement} form */
export function clearFieldErrors(form) {
  for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  for (const slot of form.querySelectorAll('.field-error')) mount(slot);
}

/**
 * Puts each field error next to its control; returns the message for above the form: the problem's, with any
 * errors no field took, or a pointer to the fields when they took them all.
 * @param {HTMLElement} form
 * @param {import('./api.js').ApiProblem} problem
 */
export function showFieldErrors(form, problem) {
  clearFieldErrors(form);
  const leftOver = [];
  let first = /** @type {HTMLElement | null} */ (null);
  for (const e of problem.errors ?? []) {
    const name = e.field ?? e.pointer?.split('/').filter(Boolean)[0];
    const slot = name ? form.querySelector(`.field-error[data-error-for="${CSS.escape(name)}"]`) : null;
    const control = name ? form.querySelector(`[name="${CSS.escape(name)}"]`) : null;
    if (!slot || !(control instanceof HTMLElement)) {
      leftOver.push(name ? `${name}: ${e.message}` : e.message);
      continue;
    }
    slot.append(slot.textContent ? ` ${e.message}` : e.message);
    control.setAttribute('aria-invalid', 'true');
    first ??= control;
  }
  first?.focus();
  if (leftOver.length) return `${problem.message} ${leftOver.join('; ')}`;
  return first ? 'Nothing was saved: see the message next to the field.' : problem.message;
}
