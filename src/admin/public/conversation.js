// One lead's conversation on the Replies page: our sequence emails, what the lead sent back and the replies
// written to them, oldest first, followed live (get_conversation with wait_seconds) so a new answer or a
// decided reply shows without reloading. Mail is shown as text only, never as HTML. Below it, the reply form
// (the API's approval rules decide whether it is sent or waits) and, in sandbox mode, "Reply as this lead".
import { ApiProblem } from './api.js';
import { h, mount } from './dom.js';
import { fullDate, timeElement } from './format.js';
import { follow } from './long-poll.js';
import { replyForm } from './conversation-reply.js';
import { approvalLink, classificationBadge, effectText, replyStatusBadge } from './reply-words.js';
import { sandboxReplyCard } from './conversation-sandbox.js';
import { messageStatusCell, sequenceStatusLabel } from './sequence-words.js';
import { errorState, loadingState, pageHeader } from './shell.js';

const WAIT_SECONDS = 25;

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 * @param {{ leadId: string, back: HTMLElement, sequenceNames: () => Promise<Map<string, string>> }} options
 */
export function conversationView(main, ctx, options) {
  const { leadId } = options;
  document.title = 'Conversation · Replies · Agent Platform';
  const thread = h('section', { class: 'card', 'aria-labelledby': 'thread-title' });
  const enrollments = h('div', { class: 'conversation-enrollments' });
  let shown = '';
  /** @type {Map<string, string>} */
  let names = new Map();

  async function load() {
    mount(main, options.back, loadingState('Loading the conversation…'));
    try {
      const [conversation, lastSent, sequenceNames] = await Promise.all([
        ctx.api.get_conversation({ lead_id: leadId }),
        ctx.api
          .list_sent_messages({ lead_id: leadId, status: ['sent'], limit: 1 })
          .then((page) => page.data[0] ?? null)
          .catch(() => null),
        options.sequenceNames(),
      ]);
      if (!ctx.alive()) return;
      names = sequenceNames;
      render(conversation, lastSent);
      void follow({
        read: () => ctx.api.get_conversation({ lead_id: leadId, wait_seconds: WAIT_SECONDS }),
        onValue: update,
        alive: ctx.alive,
        signal: ctx.signal,
      });
    } catch (error) {
      if (!ctx.alive() || (error instanceof ApiProblem && error.status === 401)) return;
      const message = error instanceof Error ? error.message : String(error);
      mount(
        main,
        options.back,
        errorState(message, () => void load()),
      );
    }
  }

  /** @param {any} conversation @param {any} lastSent the newest message a sequence sent the lead, if any */
  function render(conversation, lastSent) {
    const email = conversation.email;
    document.title = `${email} · Replies · Agent Platform`;
    const description = conversation.last_replied_at
      ? `Last answered ${fullDate(conversation.last_replied_at)}. Everything you and ${email} wrote, oldest first.`
      : `Everything you and ${email} wrote, oldest first.`;
    const form = replyForm(ctx, { leadId, email, onSent: refresh });
    mount(
      main,
      options.back,
      pageHeader({ title: `Conversation with ${email}`, description }),
      enrollments,
      thread,
      form,
      lastSent?.mode === 'sandbox' ? sandboxReplyCard(ctx, { message: lastSent }) : null,
    );
    update(conversation);
  }

  /** Redraws the thread and the enrollments when something changed. @param {any} conversation */
  function update(conversation) {
    const fingerprint = JSON.stringify([
      conversation.messages.map((/** @type {any} */ m) => `${m.id}:${m.status}`),
      conversation.enrollments.map((/** @type {any} */ e) => `${e.sequence_id}:${e.status}`),
    ]);
    if (fingerprint === shown) return;
    shown = fingerprint;
    mount(enrollments, ...conversation.enrollments.map((/** @type {any} */ e) => enrollmentNote(e, names)));
    mount(
      thread,
      h(
        'div',
        { class: 'card-header' },
        h('h2', { id: 'thread-title', class: 'card-title', text: 'Messages' }),
        h('span', { class: 'muted', text: `${conversation.messages.length} in this conversation` }),
      ),
      conversation.messages.length
        ? h(
            'ol',
            { class: 'thread', 'aria-label': 'Messages, oldest first' },
            conversation.messages.map((/** @type {any} */ m) => entry(m, conversation.email)),
          )
        : h('p', { class: 'empty-text thread-empty', text: 'Nothing was written to or by this lead yet.' }),
    );
  }

  /** After a reply: read the conversation now rather than at the next change the long poll hears of. */
  async function refresh() {
    try {
      const conversation = await ctx.api.get_conversation({ lead_id: leadId });
      if (ctx.alive()) update(conversation);
    } catch {
      // The long poll shows it a little later.
    }
  }

  void load();
}

/** @param {any} e an enrollment @param {Map<string, string>} names */
function enrollmentNote(e, names) {
  const name = names.get(e.sequence_id) ?? e.sequence_id;
  const why = e.stop_reason ? ` (${e.stop_reason.replaceAll('_', ' ')})` : '';
  return h(
    'p',
    { class: 'enrollment-note' },
    'Sequence ',
    h('a', { class: 'link', href: `/admin/sequences/${encodeURIComponent(e.sequence_id)}`, text: name }),
    `: ${sequenceStatusLabel(e.status)}${why}`,
    e.next_due_at ? `, next email ${fullDate(e.next_due_at)}` : '',
  );
}

/** One message of the thread: who wrote it, when, its state and its text. @param {any} m @param {string} email */
function entry(m, email) {
  const inbound = m.direction === 'inbound';
  const who =
    m.kind === 'inbound'
      ? email
      : m.kind === 'sequence_message'
        ? `You · sequence email, step ${m.step}`
        : 'You · reply';
  const state =
    m.kind === 'inbound'
      ? [
          classificationBadge(m.classification),
          effectText(m.status) ? h('span', { class: 'cell-sub', text: effectText(m.status) }) : null,
        ]
      : m.kind === 'sequence_message'
        ? messageStatusCell(m.status)
        : replyStatusBadge(m.status);
  const body = m.text
    ? h('pre', { class: 'thread-text', text: m.text })
    : h('p', {
        class: 'muted thread-note',
        text: inbound
          ? 'The lead’s words are shown only when the mailbox may read reply text (read_reply_text).'
          : 'Sequence emails keep only their subject here; the sequence shows each step’s text.',
      });
  const pending =
    m.kind === 'conversation_reply' && m.status === 'pending_approval'
      ? h('p', { class: 'thread-pending' }, 'Waiting for a person to approve it. ', approvalLink(m.id))
      : null;
  return h(
    'li',
    { class: `thread-item thread-${m.direction}`, dataset: { kind: m.kind, entryId: m.id } },
    h(
      'div',
      { class: 'thread-head' },
      h('strong', { class: 'thread-who', text: who }),
      state,
      timeElement(m.at, { relativeTime: true }),
    ),
    m.subject ? h('p', { class: 'thread-subject', text: m.subject }) : null,
    body,
    pending,
  );
}
