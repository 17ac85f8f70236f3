// The test email dialog: asks for the recipient, sends one message through a connected connector, and
// shows the outcome in place: what was sent (and, in sandbox mode, where to find it), or the API's reason.
import { ApiProblem } from './api.js';
import { busy, openDialog } from './dialogs.js';
import { banner, h } from './dom.js';
import { applyFieldErrors, field, input, submitButton } from './forms.js';

/**
 * @param {{ api: import('./api.js').Api, connector: any, defaultTo: string, onSent: (sent: any) => void }} options
 */
export function testEmailDialog(options) {
  const { connector } = options;
  const sandbox = connector.mode === 'sandbox';
  const d = openDialog({ title: 'Send a test email' });
  const to = input({
    type: 'email',
    name: 'to',
    required: true,
    maxlength: '254',
    autocomplete: 'email',
    spellcheck: 'false',
    value: options.defaultTo,
    placeholder: 'name@company.com',
  });
  const errorSlot = h('div', { class: 'dialog-error' });
  const submit = submitButton('Send test email');
  const cancel = h('button', {
    type: 'button',
    class: 'btn btn-secondary',
    text: 'Cancel',
    on: { click: () => d.close() },
  });
  const where = sandbox
    ? 'Sandbox mode: nothing is delivered; the message lands in the sandbox mailbox on this page.'
    : 'This sends one real message through the connected account.';
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'dialog-form' },
      h(
        'p',
        { class: 'dialog-text' },
        'One short message from ',
        h('strong', { text: connector.account_email }),
        ', to check that the connection works. ',
        where,
      ),
      field({ label: 'Recipient', control: to }),
      errorSlot,
      h('div', { class: 'dialog-actions' }, cancel, submit),
    )
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const sent = await busy(submit, errorSlot, 'Sending…', async () => {
      try {
        return await options.api.send_test_email({ connector_id: connector.id, to: to.value.trim() });
      } catch (error) {
        if (!(error instanceof ApiProblem)) throw error;
        // A refusal about the connector itself (not connected, provider down) is said by its detail alone.
        const aboutRecipient = error.errors.some((e) => (e.field ?? e.pointer?.split('/').pop()) === 'to');
        throw new Error(aboutRecipient ? applyFieldErrors(form, error) : error.message);
      }
    });
    if (!sent) return;
    options.onSent(sent);
    showSent(d, sent);
  });
  d.setContent([form]);
}

/** @param {import('./dialogs.js').DialogHandle} d @param {any} sent */
function showSent(d, sent) {
  d.setTitle('Test email sent');
  const done = h('button', { type: 'button', class: 'btn btn-primary', text: 'Done', on: { click: () => d.close() } });
  const note =
    sent.mode === 'sandbox'
      ? 'It was not delivered: find it in the sandbox mailbox on this page.'
      : `Check the inbox of ${sent.to}.`;
  d.setContent(
    [
      banner('success', `Sent from ${sent.from} to ${sent.to}.`, { title: 'The provider accepted the message' }),
      h('p', { class: 'dialog-text', text: note }),
      h('p', { class: 'dialog-text' }, 'Message id: ', h('code', { text: sent.provider_message_id })),
      h('div', { class: 'dialog-actions' }, done),
    ],
    done,
  );
}
