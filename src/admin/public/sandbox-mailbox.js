// The sandbox mailbox: what sandbox-mode connectors "sent", and what their sandbox leads answered, newest
// first. Nothing here was delivered. Bodies are shown as text only: a message's HTML is someone else's
// markup and never reaches the DOM. A sent message offers "Reply as this lead" (sandbox-reply-dialog.js).
import { badge, banner, h, icon, mount } from './dom.js';
import { fullDate, timeElement } from './format.js';
import { sandboxReplyDialog } from './sandbox-reply-dialog.js';
import { emptyState, loadingState } from './shell.js';

/**
 * @param {import('./app.js').PageContext} ctx
 * @returns {{ element: HTMLElement, load: () => Promise<any[] | null> }}
 */
export function sandboxMailbox(ctx) {
  const list = h('div', { class: 'mailbox-body' });
  const refresh = /** @type {HTMLButtonElement} */ (
    h(
      'button',
      { type: 'button', class: 'btn btn-secondary btn-sm', on: { click: () => void load() } },
      icon('refresh'),
      h('span', { text: 'Refresh' }),
    )
  );
  const element = h(
    'section',
    { class: 'card section', 'aria-labelledby': 'mailbox-title', hidden: true },
    h(
      'div',
      { class: 'card-header' },
      h(
        'div',
        null,
        h('h2', { id: 'mailbox-title', class: 'card-title', text: 'Sandbox mailbox' }),
        h('p', {
          class: 'card-description',
          text: 'Mail sent through sandbox connectors lands here instead of being delivered.',
        }),
      ),
      refresh,
    ),
    list,
  );

  /** Loads the newest messages; null when they could not be read. */
  async function load() {
    refresh.disabled = true;
    if (!list.hasChildNodes()) mount(list, loadingState('Loading the sandbox mailbox…'));
    try {
      const page = await ctx.api.list_sandbox_messages({ limit: 20 });
      if (!ctx.alive()) return null;
      render(page.data);
      return page.data;
    } catch (error) {
      if (ctx.alive())
        mount(
          list,
          h(
            'div',
            { class: 'error-state' },
            banner('error', error instanceof Error ? error.message : String(error), {
              title: 'Could not load the sandbox mailbox',
            }),
          ),
        );
      return null;
    } finally {
      refresh.disabled = false;
    }
  }

  /** @param {any[]} messages */
  function render(messages) {
    if (!messages.length) {
      mount(
        list,
        emptyState({
          icon: 'mail',
          title: 'No sandbox mail yet',
          message: 'Send a test email from a connected sandbox connector and it shows up here.',
        }),
      );
      return;
    }
    mount(
      list,
      h(
        'ul',
        { class: 'mail-list', 'aria-label': `Sandbox messages (${messages.length})` },
        messages.map((m) => messageItem(m, () => replyAsLead(m))),
      ),
    );
  }

  /** @param {any} m */
  function replyAsLead(m) {
    sandboxReplyDialog({ api: ctx.api, message: m, onAnswered: () => void load() });
  }

  return { element, load };
}

/** @param {any} m @param {() => void} onReply */
function messageItem(m, onReply) {
  const inbound = m.direction === 'inbound';
  const meta = h(
    'dl',
    { class: 'mail-meta' },
    h('dt', { text: 'From' }),
    h('dd', { text: m.from ?? m.account_email }),
    h('dt', { text: 'To' }),
    h('dd', { text: m.to ?? '—' }),
    h('dt', { text: inbound ? 'Received' : 'Sent' }),
    h(
      'dd',
      null,
      timeElement(m.created_at, { relativeTime: true }),
      h('span', { class: 'muted', text: ` · ${fullDate(m.created_at)}` }),
    ),
  );
  const body = m.text
    ? h('pre', { class: 'mail-text', text: m.text })
    : h('p', { class: 'muted', text: 'This message has no text body.' });
  const reply = inbound
    ? null
    : h(
        'button',
        {
          type: 'button',
          class: 'btn btn-secondary btn-sm',
          'aria-label': `Reply as this lead to ${m.subject ?? 'this message'}`,
          on: { click: onReply },
        },
        h('span', { text: 'Reply as this lead' }),
        badge('Sandbox', 'amber'),
      );
  return h(
    'li',
    { class: 'mail-item', dataset: { messageId: m.id, direction: m.direction } },
    h('h3', { class: 'mail-subject', text: m.subject ?? '(no subject)' }),
    inbound ? badge('Received from the lead', 'indigo') : null,
    meta,
    body,
    reply,
  );
}
