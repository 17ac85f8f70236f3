// Replies to leads waiting for a person (an agent or an API key wrote them while the workspace requires
// approval): the list beside the sequences on the Approvals page, and one reply under review, opened by the
// approval_url `?reply=crp_…`. Approving sends it at once, in the lead's thread; rejecting keeps it unsent
// with a note. The API has no read of one reply, so the review finds it among those pending.
import { allPages, ApiProblem } from './api.js';
import { decisionDialog, noteField } from './approval-dialogs.js';
import { banner, h, icon, mount, srOnly } from './dom.js';
import { timeElement } from './format.js';
import { submitButton } from './forms.js';
import { emptyState, errorState, focusTitle, loadingState, pageHeader } from './shell.js';

const PATH = '/admin/approvals';
const hrefOf = (/** @type {string} */ id) => `${PATH}?reply=${encodeURIComponent(id)}`;

/**
 * The card listing replies pending approval.
 * @param {import('./app.js').PageContext} ctx
 * @param {(event: MouseEvent, id: string) => void} open
 */
export function pendingRepliesCard(ctx, open) {
  const card = h('section', { class: 'card', 'aria-label': 'Replies pending approval' });
  const load = async () => {
    mount(card, loadingState('Loading replies pending approval…'));
    try {
      const replies = await allPages((c) =>
        ctx.api.list_conversation_replies({ limit: 50, status: ['pending_approval'], cursor: c ?? undefined }),
      );
      if (ctx.alive()) render(replies);
    } catch (error) {
      if (ctx.alive() && !(error instanceof ApiProblem && error.status === 401))
        mount(
          card,
          errorState(error instanceof Error ? error.message : String(error), () => void load()),
        );
    }
  };
  /** @param {any[]} replies */
  const render = (replies) => {
    if (!replies.length) {
      mount(
        card,
        emptyState({
          icon: 'check',
          title: 'No replies to approve',
          message: 'When an agent writes to a lead in their thread, its reply waits here for you before it is sent.',
        }),
      );
      return;
    }
    const head = ['Lead', 'Subject', 'Reply', 'Written'].map((t) => h('th', { scope: 'col', text: t }));
    const rows = replies.map((r) =>
      h(
        'tr',
        { dataset: { replyId: r.id } },
        h(
          'th',
          { scope: 'row', class: 'cell-primary' },
          h('span', { class: 'cell-title', text: r.to ?? 'Deleted lead' }),
        ),
        h('td', { text: r.subject }),
        h('td', { class: 'cell-note', text: r.body.length > 120 ? `${r.body.slice(0, 117)}…` : r.body }),
        h('td', null, timeElement(r.created_at, { relativeTime: true })),
        h(
          'td',
          { class: 'cell-actions' },
          h('a', {
            class: 'btn btn-secondary btn-sm',
            href: hrefOf(r.id),
            'aria-label': `Review the reply to ${r.to ?? 'a deleted lead'}`,
            text: 'Review',
            on: { click: (/** @type {MouseEvent} */ e) => open(e, r.id) },
          }),
        ),
      ),
    );
    const table = h(
      'table',
      { class: 'table' },
      h('caption', { class: 'sr-only', text: `Replies pending approval (${replies.length})` }),
      h('thead', null, h('tr', null, head, h('th', { scope: 'col' }, srOnly('Actions')))),
      h('tbody', null, rows),
    );
    const n = replies.length;
    mount(
      card,
      h('div', { class: 'table-wrap' }, table),
      h('p', { class: 'card-footer', text: `${n} ${n === 1 ? 'reply' : 'replies'} pending approval` }),
    );
  };
  void load();
  return card;
}

/**
 * One reply under review, with Approve and send / Reject for owners and admins.
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 * @param {{ id: string, back: HTMLElement }} options
 */
export function replyReview(main, ctx, options) {
  const notices = h('div', { class: 'notices' });
  const load = async () => {
    mount(main, options.back, loadingState('Loading the reply…'));
    try {
      const pending = await allPages((c) =>
        ctx.api.list_conversation_replies({ limit: 50, status: ['pending_approval'], cursor: c ?? undefined }),
      );
      if (ctx.alive()) render(pending.find((r) => r.id === options.id) ?? null);
    } catch (error) {
      if (ctx.alive() && !(error instanceof ApiProblem && error.status === 401))
        mount(
          main,
          options.back,
          errorState(error instanceof Error ? error.message : String(error), () => void load()),
        );
    }
  };

  /** @param {any} reply the pending reply, or null when it is not (or no longer) pending */
  function render(reply) {
    document.title = 'Reply · Approvals · Agent Platform';
    if (!reply) {
      mount(
        main,
        options.back,
        pageHeader({
          title: 'Reply to a lead',
          description:
            'This reply is not waiting for approval: it was already approved or rejected, or it does not exist.',
        }),
        notices,
      );
      return;
    }
    mount(
      main,
      options.back,
      pageHeader({
        title: `Reply to ${reply.to ?? 'a deleted lead'}`,
        description:
          'Read the reply, then approve it (it is sent at once, in the lead’s thread) or reject it with a note.',
      }),
      notices,
      details(reply),
      decisionBar(reply),
    );
  }

  /** @param {any} reply */
  function decisionBar(reply) {
    if (!ctx.isAdmin)
      return h('div', { class: 'notices' }, banner('info', 'Only owners and admins can approve or reject a reply.'));
    const common = {
      onDecided: (/** @type {any} */ r) => decided(r),
      onConflict: (/** @type {ApiProblem} */ p) => {
        mount(notices, banner('error', p.message, { title: 'Nothing was decided' }));
        void load();
      },
    };
    const approve = h(
      'button',
      { type: 'button', class: 'btn btn-primary', on: { click: () => approveReplyDialog(ctx, reply, common) } },
      icon('check'),
      h('span', { text: 'Approve and send' }),
    );
    const reject = h('button', {
      type: 'button',
      class: 'btn btn-secondary',
      text: 'Reject',
      on: { click: () => rejectReplyDialog(ctx, reply, common) },
    });
    return h(
      'section',
      { class: 'card decision', 'aria-label': 'Decision' },
      h('div', { class: 'decision-text' }, h('strong', { text: 'Pending approval' })),
      h('div', { class: 'decision-actions' }, reject, approve),
    );
  }

  /** @param {any} r the reply after the decision */
  function decided(r) {
    const [kind, message] =
      r.status === 'sent'
        ? ['success', `Sent to ${r.to}.`]
        : r.status === 'rejected'
          ? ['info', 'Rejected: the reply will not be sent, and its author sees your note.']
          : ['error', `Not sent (${r.status}): ${r.error_message ?? 'the mailbox refused it'}.`];
    mount(
      main,
      options.back,
      pageHeader({ title: `Reply to ${r.to ?? 'a deleted lead'}`, description: '' }),
      notices,
      details(r),
    );
    mount(notices, banner(/** @type {any} */ (kind), message));
    focusTitle(main);
  }

  void load();
}

/** @param {any} r */
function details(r) {
  /** @type {Array<[string, Node | string]>} */
  const rows = [
    ['To', r.to ?? 'Deleted lead'],
    ['Subject', r.subject],
    ['Mode', r.mode === 'sandbox' ? 'Sandbox (kept in the sandbox mailbox)' : 'Live'],
    ['Written', timeElement(r.created_at, { relativeTime: true })],
  ];
  return h(
    'section',
    { class: 'card', 'aria-label': 'Reply details' },
    h(
      'dl',
      { class: 'details' },
      rows.flatMap(([term, value]) => [h('dt', { text: term }), h('dd', null, value)]),
    ),
    h('pre', { class: 'reply-body', 'aria-label': 'Reply text', text: r.body }),
  );
}

/** @param {import('./app.js').PageContext} ctx @param {any} reply @param {any} common */
function approveReplyDialog(ctx, reply, common) {
  decisionDialog(common, {
    title: 'Approve and send this reply?',
    intro: ['It is sent at once to ', h('strong', { text: reply.to ?? '' }), ', in their thread, exactly as shown.'],
    note: null,
    noteLabel: '',
    submit: submitButton('Approve and send'),
    busyLabel: 'Sending…',
    decide: () => ctx.api.approve_conversation_reply({ reply_id: reply.id }),
  });
}

/** @param {import('./app.js').PageContext} ctx @param {any} reply @param {any} common */
function rejectReplyDialog(ctx, reply, common) {
  const note = noteField({ name: 'note', required: true, placeholder: 'What should change before this can be sent?' });
  decisionDialog(common, {
    title: 'Reject this reply?',
    intro: ['It is not sent. Its author reads your note.'],
    note,
    noteLabel: 'Note for the author',
    submit: /** @type {HTMLButtonElement} */ (h('button', { type: 'submit', class: 'btn btn-danger', text: 'Reject' })),
    busyLabel: 'Rejecting…',
    decide: () => ctx.api.reject_conversation_reply({ reply_id: reply.id, note: note.value.trim() }),
  });
}
