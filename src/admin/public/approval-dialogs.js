// The two decisions on a sequence pending approval. Approving names the revision the person reviewed
// (a note is optional); rejecting needs a note, which is what the sequence's author (often an agent)
// reads to know what to change. A refusal about the sequence itself (it changed, someone else decided)
// closes the dialog and is said on the page, where the person can reload; anything else stays in the dialog.
import { ApiProblem } from './api.js';
import { busy, openDialog } from './dialogs.js';
import { h } from './dom.js';
import { field, submitButton } from './forms.js';

/**
 * @typedef {{ api: import('./api.js').Api, sequence: any, revision: number, onDecided: (sequence: any) => void, onConflict: (problem: ApiProblem) => void }} DecisionOptions
 */

/** @param {DecisionOptions} options */
export function approveDialog(options) {
  const { sequence, revision } = options;
  const note = noteField({ name: 'note', required: false, placeholder: 'Optional: anything the author should know.' });
  decisionDialog(options, {
    title: 'Approve this sequence?',
    intro: [
      'Revision ',
      h('strong', { text: String(revision) }),
      ' of ',
      h('strong', { text: sequence.name }),
      ' can then be launched and sent, exactly as previewed. Any later edit voids this approval.',
    ],
    note,
    noteLabel: 'Note (optional)',
    submit: submitButton(`Approve revision ${revision}`),
    busyLabel: 'Approving…',
    decide: () =>
      options.api.approve_email_sequence({
        sequence_id: sequence.id,
        revision,
        ...(note.value.trim() ? { note: note.value.trim() } : {}),
      }),
  });
}

/** @param {DecisionOptions} options */
export function rejectDialog(options) {
  const note = noteField({ name: 'note', required: true, placeholder: 'What should change before this can be sent?' });
  decisionDialog(options, {
    title: 'Reject this sequence?',
    intro: ['It goes back to draft with your note, and nothing is sent. Its author can edit it and submit it again.'],
    note,
    noteLabel: 'Note for the author',
    submit: /** @type {HTMLButtonElement} */ (h('button', { type: 'submit', class: 'btn btn-danger', text: 'Reject' })),
    busyLabel: 'Rejecting…',
    decide: () => options.api.reject_email_sequence({ sequence_id: options.sequence.id, note: note.value.trim() }),
  });
}

/** @param {{ name: string, required: boolean, placeholder: string }} props */
export function noteField(props) {
  return /** @type {HTMLTextAreaElement} */ (
    h('textarea', { class: 'input textarea', rows: '4', maxlength: '2000', ...props })
  );
}

/**
 * Also the reply approvals' dialog (reply-approvals.js): only `onDecided` and `onConflict` of the options are used.
 * @param {Pick<DecisionOptions, 'onDecided' | 'onConflict'>} options
 * @param {{ title: string, intro: Array<Node | string>, note: HTMLTextAreaElement | null, noteLabel: string, submit: HTMLButtonElement, busyLabel: string, decide: () => Promise<any> }} spec
 */
export function decisionDialog(options, spec) {
  const d = openDialog({ title: spec.title });
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
      { class: 'dialog-form' },
      h('p', { class: 'dialog-text' }, ...spec.intro),
      spec.note ? field({ label: spec.noteLabel, control: spec.note }) : null,
      errorSlot,
      h('div', { class: 'dialog-actions' }, cancel, spec.submit),
    )
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (spec.note?.required && !spec.note.value.trim()) {
      spec.note.setCustomValidity('Write a note for the author.');
      spec.note.reportValidity();
      return;
    }
    /** @type {ApiProblem | null} */
    let conflict = null;
    const decided = await busy(spec.submit, errorSlot, spec.busyLabel, async () => {
      try {
        return await spec.decide();
      } catch (error) {
        if (error instanceof ApiProblem && error.status === 409) conflict = error;
        else throw error;
        return undefined;
      }
    });
    if (conflict) {
      d.close();
      options.onConflict(conflict);
    } else if (decided) {
      d.close();
      options.onDecided(decided);
    }
  });
  spec.note?.addEventListener('input', () => spec.note?.setCustomValidity(''));
  d.setContent([form], spec.note ?? spec.submit);
}
