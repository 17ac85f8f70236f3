// The reply form of a conversation. The API decides what happens to a reply, by the workspace's approval rule:
// a person signed in with their own login sends at once; what an agent or an API key writes waits as
// `pending_approval` while the workspace requires human approval. The form says which happened, with the
// link to Approvals for a reply that waits, and shows the API's refusals (a suppressed lead, no thread yet) in place.
import { ApiProblem } from './api.js';
import { banner, h, icon, mount } from './dom.js';
import { applyFieldErrors, field, submitButton } from './forms.js';
import { approvalLink } from './reply-words.js';

/**
 * @param {import('./app.js').PageContext} ctx
 * @param {{ leadId: string, email: string, onSent: () => void }} options
 */
export function replyForm(ctx, options) {
  const text = /** @type {HTMLTextAreaElement} */ (
    h('textarea', { class: 'input textarea', name: 'body', rows: '5', required: true, maxlength: '20000' })
  );
  const outcome = h('div', { class: 'form-outcome' });
  const errorSlot = h('div', { class: 'form-error' });
  const submit = submitButton('Send reply');
  // One key per reply: a retried submit after a lost answer does not send it twice.
  let idempotencyKey = crypto.randomUUID();
  text.addEventListener('input', () => text.removeAttribute('aria-invalid'));
  const form = /** @type {HTMLFormElement} */ (
    h(
      'form',
      { class: 'card section conversation-reply', 'aria-labelledby': 'reply-title', novalidate: false },
      h('h2', { id: 'reply-title', class: 'card-title', text: 'Reply' }),
      field({
        label: `Your reply to ${options.email}`,
        control: text,
        hint: 'Sent as text in the lead’s thread, from the mailbox that wrote to them. Signed in as yourself, you send at once; replies written by agents or API keys wait for approval while the workspace requires it.',
      }),
      errorSlot,
      h('div', { class: 'form-actions' }, submit),
      outcome,
    )
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = text.value.trim();
    if (!body) {
      text.setAttribute('aria-invalid', 'true');
      mount(errorSlot, banner('error', 'Write the reply first.'));
      text.focus();
      return;
    }
    submit.disabled = true;
    submit.setAttribute('aria-busy', 'true');
    submit.textContent = 'Sending…';
    mount(errorSlot);
    mount(outcome);
    try {
      const reply = await ctx.api.reply_to_conversation({
        lead_id: options.leadId,
        body,
        idempotency_key: idempotencyKey,
      });
      if (!ctx.alive()) return;
      idempotencyKey = crypto.randomUUID();
      text.value = '';
      mount(outcome, outcomeBanner(reply));
      options.onSent();
    } catch (error) {
      if (!ctx.alive() || (error instanceof ApiProblem && error.status === 401)) return;
      const message = error instanceof ApiProblem ? applyFieldErrors(form, error) : String(error);
      mount(errorSlot, banner('error', message, { title: 'The reply was not sent' }));
    } finally {
      submit.disabled = false;
      submit.removeAttribute('aria-busy');
      submit.textContent = 'Send reply';
    }
  });
  return form;
}

/** What became of the reply, as the API answered. @param {any} reply */
function outcomeBanner(reply) {
  if (reply.status === 'pending_approval')
    return h(
      'div',
      { class: 'banner banner-info', role: 'status' },
      icon('info', 'icon banner-icon'),
      h(
        'div',
        { class: 'banner-body' },
        h('strong', { class: 'banner-title', text: 'Waiting for approval' }),
        h(
          'span',
          null,
          'This workspace requires a person to approve replies before they are sent. ',
          approvalLink(reply.id),
        ),
      ),
    );
  if (reply.status === 'sent')
    return banner(
      'success',
      `Sent to ${reply.to ?? 'the lead'}${reply.mode === 'sandbox' ? ' (sandbox: kept in the sandbox mailbox)' : ''}.`,
    );
  if (reply.status === 'sending') return banner('info', 'Sending: the reply is on its way.');
  return banner('error', `Not sent (${reply.status}): ${reply.error_message ?? 'the mailbox refused it'}.`);
}
