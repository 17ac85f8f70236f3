// "Reply as this lead": in sandbox mode a person plays the lead of a sandbox message, answering it with a
// reply, an out-of-office auto-reply or a bounce (simulate_sandbox_inbound). The answer lands in the
// message's thread in the sandbox mailbox, where the mailbox sync finds it as it would find real mail.
import { ApiProblem } from './api.js';
import { busy, openDialog } from './dialogs.js';
import { h } from './dom.js';
import { field, select, submitButton } from './forms.js';

const KINDS = [
  { value: 'reply', label: 'Reply' },
  { value: 'auto_reply', label: 'Auto-reply (out of office)' },
  { value: 'bounce', label: 'Bounce (address does not exist)' },
];

/**
 * @param {{ api: import('./api.js').Api, message: any, onAnswered: (inbound: any) => void }} options
 */
export function sandboxReplyDialog(options) {
  const { message } = options;
  const d = openDialog({ title: 'Reply as this lead' });
  const kind = select({ name: 'kind' }, KINDS, 'reply');
  const text = /** @type {HTMLTextAreaElement} */ (
    h('textarea', {
      class: 'input textarea',
      name: 'text',
      rows: '4',
      maxlength: '20000',
      placeholder: 'Leave empty for a short sample answer',
    })
  );
  const errorSlot = h('div', { class: 'dialog-error' });
  const submit = submitButton('Send as the lead');
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
      h(
        'p',
        { class: 'dialog-text' },
        'Sandbox test helper: answers ',
        h('strong', { text: message.subject ?? '(no subject)' }),
        ` as ${message.to ?? 'the lead'}, in its thread. Nothing is sent anywhere; live mail cannot be faked.`,
      ),
      field({ label: 'Kind', control: kind }),
      field({ label: 'Text', control: text, hint: 'What the lead writes (a bounce shows it as the server’s note).' }),
      errorSlot,
      h('div', { class: 'dialog-actions' }, cancel, submit),
    )
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const inbound = await busy(submit, errorSlot, 'Sending…', async () => {
      try {
        return await options.api.simulate_sandbox_inbound({
          message_id: message.id,
          kind: /** @type {any} */ (kind.value),
          ...(text.value.trim() ? { text: text.value.trim() } : {}),
        });
      } catch (error) {
        if (!(error instanceof ApiProblem)) throw error;
        throw new Error(error.message);
      }
    });
    if (!inbound) return;
    d.close();
    options.onAnswered(inbound);
  });
  d.setContent([form]);
}
