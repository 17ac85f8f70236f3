// A lead's stage on its page: where the conversation is (new … won, lost), set by update_lead_stage with an
// optional note kept on the lead.stage_changed event. Setting the stage the lead already has changes nothing.
import { ApiProblem } from './api.js';
import { banner, h, mount } from './dom.js';
import { select } from './forms.js';
import { leadStageBadge, stageChoices, stageLabel } from './lead-words.js';

/**
 * @param {import('./app.js').PageContext} ctx
 * @param {any} lead
 * @param {(lead: any, notice: { kind: 'success', message: string }) => void} changed draws the page again
 */
export function stageCard(ctx, lead, changed) {
  const control = select({ name: 'stage', id: 'stage-select', class: 'input select' }, stageChoices, lead.stage);
  const note = h('input', { class: 'input', id: 'stage-note', name: 'note', type: 'text', maxlength: '1000' });
  const save = /** @type {HTMLButtonElement} */ (
    h('button', { type: 'submit', class: 'btn btn-primary', text: 'Change stage' })
  );
  const errorSlot = h('div');
  const form = h(
    'form',
    { class: 'stage-form leads-body', 'aria-label': 'Change the stage' },
    h('p', { class: 'stage-now' }, 'Now ', leadStageBadge(lead.stage)),
    h('div', { class: 'field' }, h('label', { class: 'label', for: control.id, text: 'Stage' }), control),
    h('div', { class: 'field' }, h('label', { class: 'label', for: note.id, text: 'Note (optional)' }), note),
    errorSlot,
    h('div', null, save),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    save.disabled = true;
    save.textContent = 'Saving…';
    mount(errorSlot);
    try {
      const stage = /** @type {any} */ (control.value);
      const noteText = /** @type {HTMLInputElement} */ (note).value.trim();
      const updated = await ctx.api.update_lead_stage({
        lead_id: lead.id,
        stage,
        ...(noteText ? { note: noteText } : {}),
        idempotency_key: crypto.randomUUID(),
      });
      if (!ctx.alive()) return;
      const message =
        updated.stage === lead.stage
          ? `The stage was already ${stageLabel(lead.stage)}.`
          : `Stage changed to ${stageLabel(updated.stage)}.`;
      changed(updated, { kind: 'success', message });
    } catch (error) {
      if (!ctx.alive() || (error instanceof ApiProblem && error.status === 401)) return;
      mount(errorSlot, banner('error', error instanceof Error ? error.message : String(error)));
      save.disabled = false;
      save.textContent = 'Change stage';
    }
  });
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'stage-title' },
    h(
      'div',
      { class: 'card-header' },
      h(
        'div',
        null,
        h('h2', { class: 'card-title', id: 'stage-title', text: 'Stage' }),
        h('p', { class: 'card-description', text: 'Where the conversation with this lead is.' }),
      ),
    ),
    form,
  );
}
