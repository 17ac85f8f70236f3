// A lead's activity on its page: the sequences it is enrolled in (from get_conversation, which says what
// stopped each), the messages sequences sent it (list_sent_messages by lead) and what it sent back
// (list_replies by lead). Each card loads on its own, so one that fails leaves the others readable.
import { allPages, ApiProblem } from './api.js';
import { h, mount } from './dom.js';
import { fullDate, timeElement } from './format.js';
import { enrollmentStatusBadge, plural, replyKindBadge } from './lead-words.js';
import { messageStatusCell } from './sequence-words.js';
import { errorState, loadingState } from './shell.js';

const MESSAGES = 100;

/** @param {import('./app.js').PageContext} ctx @param {string} leadId */
export function leadActivity(ctx, leadId) {
  const enrollments = section('enrollments', 'Sequences', 'The sequences this lead is enrolled in.');
  const messages = section('messages', 'Messages sent', 'What sequences sent this lead, newest first.');
  const replies = section(
    'replies',
    'Replies',
    'What this lead sent back: replies, auto-replies, bounces and unsubscribe requests.',
  );
  // Sequence names for the enrollments and messages; ids stand in when they cannot be read.
  const names = allPages((c) => ctx.api.list_email_sequences({ limit: 100, cursor: c ?? undefined }))
    .then((list) => new Map(list.map((s) => [s.id, s.name])))
    .catch(() => new Map());
  void fill(enrollments.body, 'Loading sequences…', async () => {
    const [conversation, seqNames] = await Promise.all([ctx.api.get_conversation({ lead_id: leadId }), names]);
    return enrollmentList(conversation.enrollments, seqNames);
  });
  void fill(messages.body, 'Loading messages…', async () => {
    const [page, seqNames] = await Promise.all([
      ctx.api.list_sent_messages({ lead_id: leadId, limit: MESSAGES }),
      names,
    ]);
    return messageTable(page.data, page.has_more, seqNames);
  });
  void fill(replies.body, 'Loading replies…', async () => {
    const page = await ctx.api.list_replies({ lead_id: leadId, limit: 50 });
    return replyList(page.data);
  });
  return { element: h('div', { class: 'lead-activity' }, enrollments.element, messages.element, replies.element) };

  /** @param {HTMLElement} body @param {string} loading @param {() => Promise<Node | Node[]>} work */
  async function fill(body, loading, work) {
    mount(body, loadingState(loading));
    try {
      const content = await work();
      if (ctx.alive()) mount(body, content);
    } catch (error) {
      if (!ctx.alive() || (error instanceof ApiProblem && error.status === 401)) return;
      mount(
        body,
        errorState(error instanceof Error ? error.message : String(error), () => void fill(body, loading, work)),
      );
    }
  }
}

/** @param {string} key @param {string} title @param {string} description */
function section(key, title, description) {
  const body = h('div');
  const element = h(
    'section',
    { class: 'card section', 'aria-labelledby': `${key}-title` },
    h(
      'div',
      { class: 'card-header' },
      h(
        'div',
        null,
        h('h2', { class: 'card-title', id: `${key}-title`, text: title }),
        h('p', { class: 'card-description', text: description }),
      ),
    ),
    body,
  );
  return { element, body };
}

/** @param {string} text */
const nothing = (text) => h('p', { class: 'leads-body muted', text });

/** @param {Map<string, string>} names @param {string} id */
function sequenceLink(names, id) {
  return h('a', { class: 'link', href: `/admin/sequences/${encodeURIComponent(id)}`, text: names.get(id) ?? id });
}

/** @param {any[]} list @param {Map<string, string>} names */
function enrollmentList(list, names) {
  if (!list.length) return nothing('Not enrolled in any sequence.');
  const head = ['Sequence', 'Status', 'Stopped because', 'Next step due'].map((t) =>
    h('th', { scope: 'col', text: t }),
  );
  const rows = list.map((e) =>
    h(
      'tr',
      { dataset: { sequenceId: e.sequence_id } },
      h('th', { scope: 'row' }, sequenceLink(names, e.sequence_id)),
      h('td', null, enrollmentStatusBadge(e.status)),
      h('td', { text: e.stop_reason ? e.stop_reason.replaceAll('_', ' ') : '—' }),
      h(
        'td',
        { class: 'nowrap' },
        e.next_due_at ? h('time', { datetime: e.next_due_at, text: fullDate(e.next_due_at) }) : '—',
      ),
    ),
  );
  return h(
    'div',
    { class: 'table-wrap' },
    h('table', { class: 'table' }, h('thead', null, h('tr', null, head)), h('tbody', null, rows)),
  );
}

/** @param {any[]} list @param {boolean} more @param {Map<string, string>} names */
function messageTable(list, more, names) {
  if (!list.length) return nothing('No message was sent to this lead yet.');
  const head = ['Subject', 'Sequence', 'Step', 'Status', 'Sent', 'What came back'].map((t) =>
    h('th', { scope: 'col', text: t }),
  );
  const rows = list.map((m) =>
    h(
      'tr',
      { dataset: { messageId: m.id, status: m.status } },
      h('th', { scope: 'row', class: 'cell-subject' }, m.subject ?? '—'),
      h('td', null, sequenceLink(names, m.sequence_id)),
      h('td', { text: String(m.step) }),
      h('td', null, messageStatusCell(m.status)),
      h('td', { class: 'nowrap' }, m.sent_at ? timeElement(m.sent_at, { relativeTime: true }) : '—'),
      h('td', { text: m.reply_state ? m.reply_state.replaceAll('_', ' ') : '—' }),
    ),
  );
  return [
    h(
      'div',
      { class: 'table-wrap' },
      h('table', { class: 'table' }, h('thead', null, h('tr', null, head)), h('tbody', null, rows)),
    ),
    h(
      'div',
      { class: 'card-footer' },
      more
        ? `The latest ${plural(list.length, 'message')}; older ones are in Sent messages.`
        : plural(list.length, 'message'),
    ),
  ];
}

/** @param {any[]} list */
function replyList(list) {
  if (!list.length) return nothing('Nothing came back from this lead yet.');
  return h(
    'ul',
    { class: 'mail-list' },
    list.map((r) =>
      h(
        'li',
        { class: 'mail-item', dataset: { replyId: r.id } },
        h(
          'div',
          { class: 'reply-head' },
          replyKindBadge(r.classification),
          h('span', { class: 'mail-subject', text: r.subject ?? '(no subject)' }),
          timeElement(r.received_at, { relativeTime: true }),
        ),
        r.text ? h('p', { class: 'reply-text', text: r.text }) : null,
        r.effect && r.effect !== 'none'
          ? h('p', { class: 'cell-sub', text: `The sequence ${r.effect} for this lead.` })
          : null,
      ),
    ),
  );
}
