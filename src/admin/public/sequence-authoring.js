// Writing and starting a sequence in the panel, as the agent run does with tools: a new sequence (name, mailboxes,
// steps, tracking), submitting it for approval, and launching it with the leads to enroll. Approving stays on the
// Approvals page, where the rendered preview is reviewed.
import { ApiProblem, allPages } from './api.js';
import { busy, dialogForm, openDialog } from './dialogs.js';
import { banner, h, mount, uniqueId } from './dom.js';
import { applyFieldErrors, field, input, select, submitButton } from './forms.js';
import './sequence-authoring.css';

const STAGES = /** @type {const} */ ([
  'new',
  'contacted',
  'replied',
  'interested',
  'meeting_booked',
  'won',
  'lost',
  'not_interested',
]);

/** @param {string} stage */
const stageLabel = (stage) => (stage.charAt(0).toUpperCase() + stage.slice(1)).replaceAll('_', ' ');

/** An API refusal as one readable message, with the field errors marked on the form. @param {HTMLFormElement} form @param {unknown} error */
function formError(form, error) {
  return error instanceof ApiProblem ? new Error(applyFieldErrors(form, error)) : error;
}

/**
 * One step's fields: wait (days after the previous step), subject, body.
 * @param {number} index
 */
function stepFields(index) {
  const wait = input({
    type: 'number',
    name: `steps.${index}.wait_days`,
    min: '0',
    max: '60',
    value: index ? '3' : '0',
  });
  const subject = input({
    type: 'text',
    name: `steps.${index}.subject`,
    maxlength: '200',
    required: index === 0,
    placeholder: index ? 'Empty: a reply in the same thread' : 'e.g. A question about {{company}}',
  });
  const body = /** @type {HTMLTextAreaElement} */ (
    h('textarea', {
      class: 'input textarea',
      name: `steps.${index}.body`,
      rows: '5',
      required: true,
      maxlength: '20000',
      placeholder: 'Hi {{first_name}},\n\n…',
    })
  );
  const element = h(
    'fieldset',
    { class: 'step-fields' },
    h('legend', { class: 'label', text: `Step ${index + 1}` }),
    index ? field({ label: 'Wait (days after the previous step)', control: wait }) : null,
    field({ label: 'Subject', control: subject }),
    field({
      label: 'Body',
      control: body,
      hint: 'Plain text. {{first_name}}, {{company}} and the other lead fields are filled in.',
    }),
  );
  return {
    element,
    value: () => ({
      wait_days: index ? Number(wait.value || 0) : 0,
      ...(subject.value.trim() ? { subject: subject.value.trim() } : {}),
      body: body.value,
    }),
  };
}

/**
 * The "New sequence" dialog: creates a draft and hands it to `onCreated` (the page opens it).
 * @param {import('./app.js').PageContext} ctx
 * @param {{ onCreated: (sequence: { id: string }) => void }} options
 */
export async function newSequenceDialog(ctx, options) {
  const d = openDialog({ title: 'New sequence', className: 'dialog-wide' });
  d.setContent([h('p', { class: 'dialog-text', text: 'Loading your mailboxes…' })]);
  let mailboxes;
  try {
    const connectors = await allPages((c) => ctx.api.list_connectors({ limit: 50, cursor: c ?? undefined }));
    mailboxes = connectors.filter((c) => c.provider === 'gmail' && c.status === 'connected');
  } catch (error) {
    d.setContent([
      banner('error', error instanceof Error ? error.message : String(error)),
      h('button', { type: 'button', class: 'btn btn-secondary', text: 'Close', on: { click: () => d.close() } }),
    ]);
    return;
  }
  const name = input({ type: 'text', name: 'name', required: true, maxlength: '200', placeholder: 'e.g. Q1 outreach' });
  const boxes = mailboxes.map(
    (m) =>
      /** @type {HTMLInputElement} */ (
        h('input', { type: 'checkbox', name: 'sender_connector_ids', value: m.id, checked: mailboxes.length === 1 })
      ),
  );
  const mailboxField = mailboxes.length
    ? h(
        'fieldset',
        { class: 'field checkbox-group' },
        h('legend', { class: 'label', text: 'Send from' }),
        mailboxes.map((m, i) =>
          h(
            'label',
            { class: 'checkbox' },
            boxes[i],
            ` ${m.account_email ?? m.id}${m.mode === 'sandbox' ? ' (sandbox)' : ''}`,
          ),
        ),
      )
    : banner(
        'warning',
        'No Gmail mailbox is connected yet. Connect one on the Connectors page before launching; you can write the sequence now.',
      );
  const opens = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', name: 'tracking.opens' }));
  const clicks = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', name: 'tracking.clicks' }));
  /** @type {Array<ReturnType<typeof stepFields>>} */
  const steps = [stepFields(0)];
  const stepsSlot = h('div', { class: 'steps-fields' });
  const addStep = /** @type {HTMLButtonElement} */ (
    h('button', { type: 'button', class: 'btn btn-secondary btn-sm', text: 'Add a step' })
  );
  const removeStep = /** @type {HTMLButtonElement} */ (
    h('button', { type: 'button', class: 'btn btn-ghost btn-sm', text: 'Remove the last step' })
  );
  const drawSteps = () => {
    mount(
      stepsSlot,
      steps.map((s) => s.element),
    );
    addStep.disabled = steps.length >= 10;
    removeStep.hidden = steps.length < 2;
  };
  addStep.addEventListener('click', () => {
    steps.push(stepFields(steps.length));
    drawSteps();
    steps.at(-1)?.element.querySelector('input')?.focus();
  });
  removeStep.addEventListener('click', () => {
    steps.pop();
    drawSteps();
    addStep.focus();
  });
  drawSteps();
  const submit = submitButton('Create draft');
  const { form, errorSlot } = dialogForm(d, {
    fields: [
      field({ label: 'Name', control: name }),
      mailboxField,
      stepsSlot,
      h('div', { class: 'step-buttons' }, addStep, removeStep),
      h(
        'fieldset',
        { class: 'field checkbox-group' },
        h('legend', { class: 'label', text: 'Tracking (off by default; see the docs on what it costs)' }),
        h('label', { class: 'checkbox' }, opens, ' Open tracking'),
        h('label', { class: 'checkbox' }, clicks, ' Click tracking'),
      ),
    ],
    submit,
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const senders = boxes.filter((b) => b.checked).map((b) => b.value);
    const created = await busy(submit, errorSlot, 'Creating…', async () => {
      try {
        return await ctx.api.create_email_sequence({
          name: name.value.trim(),
          ...(senders.length ? { sender_connector_ids: senders } : {}),
          ...(opens.checked || clicks.checked ? { tracking: { opens: opens.checked, clicks: clicks.checked } } : {}),
          steps: steps.map((s) => s.value()),
        });
      } catch (error) {
        throw formError(form, error);
      }
    });
    if (!created) return;
    d.close();
    options.onCreated(created);
  });
  d.setContent([form], name);
}

/**
 * Submits a draft for approval; the answer's approval page is the panel's Approvals page.
 * @param {import('./app.js').PageContext} ctx
 * @param {{ id: string }} sequence
 */
export function submitForApproval(ctx, sequence) {
  return ctx.api.submit_email_sequence_for_approval({ sequence_id: sequence.id });
}

/**
 * The "Launch" dialog: which leads to enroll (all, a tag, stages, or only those already enrolled), then
 * launch_email_sequence. A refusal (not approved, mailbox disconnected, nobody enrolled) shows with what to do.
 * @param {import('./app.js').PageContext} ctx
 * @param {{ id: string, name: string }} sequence
 * @param {{ onLaunched: (result: any) => void }} options
 */
export function launchDialog(ctx, sequence, options) {
  const d = openDialog({ title: `Launch “${sequence.name}”` });
  const group = uniqueId('enroll');
  /** @param {string} value @param {string} label @param {boolean} [checked] */
  const choice = (value, label, checked = false) => {
    const radio = /** @type {HTMLInputElement} */ (h('input', { type: 'radio', name: group, value, checked }));
    return { radio, element: h('label', { class: 'checkbox' }, radio, ` ${label}`) };
  };
  const all = choice('all', 'Every subscribed lead', true);
  const tagged = choice('tag', 'Leads with the tag');
  const staged = choice('stage', 'Leads in the stage');
  const none = choice('none', 'Nobody new: only the leads already enrolled');
  const tag = input({ type: 'text', name: 'filter.tag', maxlength: '50', placeholder: 'e.g. webinar-2026' });
  const stage = select(
    { name: 'filter.stage' },
    STAGES.map((s) => ({ value: s, label: stageLabel(s) })),
    'new',
  );
  const submit = submitButton('Launch');
  const { form, errorSlot } = dialogForm(d, {
    fields: [
      h(
        'fieldset',
        { class: 'field checkbox-group' },
        h('legend', { class: 'label', text: 'Enroll' }),
        all.element,
        tagged.element,
        field({ label: 'Tag', control: tag }),
        staged.element,
        field({ label: 'Stage', control: stage }),
        none.element,
      ),
      h('p', {
        class: 'hint',
        text: 'Unsubscribed leads and leads already in this sequence are skipped. Sending starts within the schedule’s hours.',
      }),
    ],
    submit,
  });
  tag.addEventListener('input', () => (tagged.radio.checked = true));
  stage.addEventListener('change', () => (staged.radio.checked = true));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const picked = form.querySelector(`input[name="${group}"]:checked`);
    const how = picked instanceof HTMLInputElement ? picked.value : 'all';
    /** @type {import('../../generated/sdk.ts').LaunchEmailSequenceArgs['enroll']} */
    const enroll =
      how === 'all'
        ? { filter: {} }
        : how === 'tag'
          ? { filter: { tag: tag.value.trim() } }
          : how === 'stage'
            ? { filter: { stage: [/** @type {(typeof STAGES)[number]} */ (stage.value)] } }
            : undefined;
    const launched = await busy(submit, errorSlot, 'Launching…', async () => {
      try {
        return await ctx.api.launch_email_sequence({ sequence_id: sequence.id, ...(enroll ? { enroll } : {}) });
      } catch (error) {
        throw formError(form, error);
      }
    });
    if (!launched) return;
    d.close();
    options.onLaunched(launched);
  });
  d.setContent([form]);
}
