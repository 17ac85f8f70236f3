// "Reply as this lead" in a sandbox conversation: a person plays the lead and answers the last email a sequence
// sent them (sandbox-reply-dialog.js). The answer lands in the sandbox mailbox; the mailbox sync is asked to read
// it now, and the conversation (which follows itself) shows it as soon as the sync has recorded it.
import { ApiProblem } from './api.js';
import { badge, banner, h, mount } from './dom.js';
import { sandboxReplyDialog } from './sandbox-reply-dialog.js';

/**
 * @param {import('./app.js').PageContext} ctx
 * @param {{ message: any }} options the newest sent sequence message to the lead, in sandbox mode
 */
export function sandboxReplyCard(ctx, options) {
  const { message } = options;
  const outcome = h('div', { class: 'form-outcome' });
  const button = h(
    'button',
    {
      type: 'button',
      class: 'btn btn-secondary',
      'aria-label': 'Reply as this lead (sandbox)',
      on: {
        click: () => sandboxReplyDialog({ api: ctx.api, message, onAnswered: () => void answered() }),
      },
    },
    h('span', { text: 'Reply as this lead' }),
    badge('Sandbox', 'amber'),
  );

  async function answered() {
    mount(
      outcome,
      banner(
        'info',
        'The lead’s answer is in the sandbox mailbox. It shows in this conversation once the mailbox sync has read it.',
      ),
    );
    try {
      await ctx.api.sync_connector_mailbox({ connector_id: message.connector_id });
    } catch (error) {
      // A mailbox that may not read replies is synced never: say so rather than wait in silence.
      if (ctx.alive() && error instanceof ApiProblem && error.status !== 401)
        mount(outcome, banner('warning', error.message, { title: 'The answer is in the sandbox mailbox only' }));
    }
  }

  return h(
    'section',
    { class: 'card section sandbox-helper', 'aria-labelledby': 'sandbox-helper-title' },
    h(
      'div',
      { class: 'card-header' },
      h(
        'div',
        null,
        h('h2', { id: 'sandbox-helper-title', class: 'card-title' }, 'Sandbox ', badge('Test helper', 'amber')),
        h('p', {
          class: 'card-description',
          text: `This lead’s emails went through a sandbox connector: nothing was delivered. Answer the last one (“${message.subject ?? 'no subject'}”) as the lead, to see how the workspace handles a reply, an out-of-office or a bounce.`,
        }),
      ),
      button,
    ),
    outcome,
  );
}
