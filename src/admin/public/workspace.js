// Settings → Workspace: the postal address every email's footer carries, whether sequences need a person's
// approval, and the sending cap. The form sends only what changed; the API's field errors appear next to their
// fields. Members can read the settings; only admins (and the owner) can change them.
import './workspace.css';
import { ApiProblem } from './api.js';
import { busy } from './dialogs.js';
import { banner, h, mount } from './dom.js';
import { clearFieldErrors, fieldWithError, showFieldErrors } from './field-errors.js';
import { submitButton } from './forms.js';
import { errorState, loadingState, pageHeader } from './shell.js';

const ADDRESS_MAX = 300;

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 */
export function workspacePage(main, ctx) {
  document.title = 'Workspace · Settings · Agent Platform';
  const description = `How ${ctx.me.workspace.name} sends: the sender's postal address, who approves sequences, and how much one mailbox may send.`;
  const notices = h('div', { class: 'notices' });
  const body = h('div', { class: 'workspace-settings' });
  mount(main, pageHeader({ title: 'Workspace', description }), notices, body);
  void load();

  async function load() {
    mount(body, h('section', { class: 'card' }, loadingState('Loading workspace settings…')));
    try {
      const settings = await ctx.api.get_workspace_settings();
      if (ctx.alive()) render(settings);
    } catch (error) {
      if (ctx.alive())
        mount(
          body,
          h(
            'section',
            { class: 'card' },
            errorState(messageOf(error), () => void load()),
          ),
        );
    }
  }

  /** @param {'success' | 'error' | 'info'} kind @param {string} message */
  function notify(kind, message) {
    mount(notices, banner(kind, message, { onDismiss: () => mount(notices) }));
  }

  /** @param {import('../../generated/sdk.ts').GetWorkspaceSettingsResult} settings */
  function render(settings) {
    let saved = settings;
    const readOnly = !ctx.isAdmin;
    const address = /** @type {HTMLTextAreaElement} */ (
      h('textarea', {
        class: 'input textarea',
        name: 'postal_address',
        rows: '4',
        autocomplete: 'street-address',
        placeholder: 'Analytical Engines Ltd\n12 Marylebone Road\nLondon NW1 5LR\nUnited Kingdom',
        disabled: readOnly,
      })
    );
    address.value = saved.postal_address ?? '';
    const approval = /** @type {HTMLInputElement} */ (
      h('input', {
        type: 'checkbox',
        class: 'switch-input',
        name: 'require_human_approval',
        checked: saved.require_human_approval,
        disabled: readOnly,
      })
    );
    const submit = submitButton('Save changes', { disabled: true });
    const reset = h('button', { type: 'button', class: 'btn btn-secondary', text: 'Discard changes', disabled: true });
    const formError = h('div', { class: 'form-error' });
    const counter = h('span', { class: 'char-count', 'aria-live': 'polite' });

    const changes = () => {
      /** @type {{ postal_address?: string | null, require_human_approval?: boolean }} */
      const patch = {};
      const typed = address.value.trim();
      if (typed !== (saved.postal_address ?? '')) patch.postal_address = typed || null;
      if (approval.checked !== saved.require_human_approval) patch.require_human_approval = approval.checked;
      return patch;
    };
    const refresh = () => {
      const dirty = Object.keys(changes()).length > 0;
      submit.disabled = readOnly || !dirty;
      /** @type {HTMLButtonElement} */ (reset).disabled = readOnly || !dirty;
      const length = address.value.trim().length;
      counter.textContent = `${length} / ${ADDRESS_MAX} characters`;
      counter.classList.toggle('over', length > ADDRESS_MAX);
    };

    const form = /** @type {HTMLFormElement} */ (
      h(
        'form',
        { class: 'settings-form', novalidate: true, 'aria-label': 'Workspace settings' },
        readOnly
          ? banner(
              'info',
              'Only workspace admins and the owner can change these settings. Ask one of them if something here needs to change.',
              { title: 'Read-only for members' },
            )
          : null,
        addressSection(address, counter, !saved.postal_address),
        approvalSection(approval),
        capsSection(saved.mailbox_daily_cap),
        formError,
        readOnly ? null : h('div', { class: 'settings-actions' }, reset, submit),
      )
    );
    form.addEventListener('input', refresh);
    form.addEventListener('change', refresh);
    reset.addEventListener('click', () => {
      address.value = saved.postal_address ?? '';
      approval.checked = saved.require_human_approval;
      clearFieldErrors(form);
      mount(formError);
      refresh();
    });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const patch = changes();
      if (!Object.keys(patch).length) return;
      clearFieldErrors(form);
      const updated = await busy(submit, formError, 'Saving…', async () => {
        try {
          return await ctx.api.update_workspace_settings(patch);
        } catch (error) {
          if (error instanceof ApiProblem && error.status === 403) readOnlyAfterRefusal(form);
          throw error instanceof ApiProblem ? new Error(showFieldErrors(form, error)) : error;
        }
      });
      if (!ctx.alive()) return;
      refresh();
      if (!updated) return;
      saved = updated;
      address.value = saved.postal_address ?? '';
      approval.checked = saved.require_human_approval;
      refresh();
      notify('success', `Saved: ${savedWhat(patch)}.`);
    });
    refresh();
    mount(body, h('section', { class: 'card settings-card' }, form));
  }

  /** The API refused (the role changed since sign-in): the form becomes read-only. @param {HTMLFormElement} form */
  function readOnlyAfterRefusal(form) {
    for (const el of form.querySelectorAll('input, textarea, button')) el.setAttribute('disabled', '');
    notify('info', 'Only workspace admins and the owner can change these settings.');
  }
}

/** @param {HTMLTextAreaElement} address @param {HTMLElement} counter @param {boolean} missing */
function addressSection(address, counter, missing) {
  const why = h(
    'div',
    null,
    h('p', {
      text: 'Printed in the footer of every email this workspace sends. Anti-spam laws require it: the US CAN-SPAM Act asks every commercial email for the sender’s valid physical postal address, and the UK and EU rules ask senders to say who they are and where they can be reached. Sequences cannot launch while it is empty.',
    }),
    counter,
  );
  return h(
    'fieldset',
    { class: 'settings-section' },
    h('legend', { class: 'settings-legend', text: 'Postal address' }),
    missing
      ? banner('warning', 'No postal address yet: no sequence of this workspace can launch until one is saved.')
      : null,
    fieldWithError({ label: 'Sender’s postal address', control: address, hint: why }),
  );
}

/** @param {HTMLInputElement} approval */
function approvalSection(approval) {
  const id = 'require-human-approval';
  approval.id = id;
  approval.setAttribute('role', 'switch');
  const hint = h(
    'div',
    { class: 'hint', id: `${id}-hint` },
    h('p', {
      text: 'When on, a sequence an agent or an API key writes waits in Approvals until a person signed in with their own login approves it; nothing is sent before. It covers sequences (their steps, leads and schedule), not single replies, which follow their own approval rules.',
    }),
    h('p', {
      text: 'Turning it off is a person’s decision: agents and API keys cannot do it.',
    }),
  );
  const error = h('p', { class: 'field-error', id: `${id}-error`, dataset: { errorFor: 'require_human_approval' } });
  approval.setAttribute('aria-describedby', `${hint.id} ${error.id}`);
  return h(
    'fieldset',
    { class: 'settings-section' },
    h('legend', { class: 'settings-legend', text: 'Human approval' }),
    h(
      'label',
      { class: 'switch', for: id },
      approval,
      h('span', { class: 'switch-track', 'aria-hidden': 'true' }),
      h('span', { class: 'switch-label', text: 'Sequences need a person’s approval before they send' }),
    ),
    hint,
    error,
  );
}

/** @param {number} cap */
function capsSection(cap) {
  return h(
    'fieldset',
    { class: 'settings-section' },
    h('legend', { class: 'settings-legend', text: 'Sending caps' }),
    h(
      'dl',
      { class: 'settings-facts' },
      h('dt', { text: 'Per mailbox, every 24 hours' }),
      h('dd', null, h('strong', { class: 'cap-value', text: `${cap.toLocaleString()} messages` })),
    ),
    h('p', {
      class: 'hint',
      text: 'Counted across all sequences that send from the mailbox, so warming mailboxes and providers’ limits are respected. The service’s operator sets it; it cannot be changed from the panel.',
    }),
  );
}

/** @param {{ postal_address?: string | null, require_human_approval?: boolean }} patch */
function savedWhat(patch) {
  const parts = [];
  if ('postal_address' in patch) parts.push(patch.postal_address ? 'postal address' : 'postal address removed');
  if (patch.require_human_approval !== undefined)
    parts.push(`human approval ${patch.require_human_approval ? 'on' : 'off'}`);
  return parts.join(', ');
}

/** @param {unknown} error */
function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}
