// One sequence under review (the page an agent's approval_url opens): what it is (revision, sender,
// window, daily limit), the checks and every step rendered for preview leads, and Approve / Reject for
// owners and admins. Approval names the revision that was rendered here, so an edit made meanwhile is
// refused (409 revision_changed) rather than approved unseen. A sequence not pending shows its status only.
import { ApiProblem } from './api.js';
import { approveDialog, rejectDialog } from './approval-dialogs.js';
import { connectorName, modeCell } from './connector-words.js';
import { banner, h, icon, mount } from './dom.js';
import { fullDate } from './format.js';
import { previewChecks, previewMessages } from './sequence-preview.js';
import { scheduleText, sequenceStatusBadge, sequenceStatusLabel } from './sequence-words.js';
import { errorState, focusTitle, loadingState, pageHeader } from './shell.js';

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 * @param {{ id: string, connectors: () => Promise<Map<string, any>>, back: HTMLElement }} options
 */
export function approvalReview(main, ctx, options) {
  const notices = h('div', { class: 'notices' });
  const body = h('div', { class: 'review' });
  let refocus = false;
  const load = async () => {
    mount(main, options.back, body);
    mount(body, loadingState('Loading the sequence…'));
    try {
      const [sequence, connectors] = await Promise.all([
        ctx.api.get_email_sequence({ sequence_id: options.id }),
        options.connectors(),
      ]);
      const preview =
        sequence.status === 'pending_approval'
          ? await ctx.api.preview_email_sequence({ sequence_id: options.id })
          : null;
      if (!ctx.alive()) return;
      // An edit between the two reads: render again so the preview and the revision shown agree.
      if (preview && preview.revision !== sequence.revision) return void load();
      render(sequence, connectors.get(sequence.sender_connector_id ?? '') ?? null, preview);
    } catch (error) {
      if (!ctx.alive() || (error instanceof ApiProblem && error.status === 401)) return;
      const message =
        error instanceof ApiProblem && error.status === 404
          ? 'There is no such sequence in this workspace. It may have been deleted.'
          : error instanceof Error
            ? error.message
            : String(error);
      mount(
        body,
        errorState(message, () => void load()),
      );
    }
  };
  void load();

  /** @param {any} sequence @param {any} sender @param {any} preview */
  function render(sequence, sender, preview) {
    document.title = `${sequence.name} · Approvals · Agent Platform`;
    const description = preview
      ? 'Review the rendered messages, then approve this revision or send it back with a note.'
      : `This sequence is ${sequenceStatusLabel(sequence.status).toLowerCase()}: there is nothing to decide here.`;
    mount(main, options.back, pageHeader({ title: sequence.name, description }), notices, details(sequence, sender));
    if (preview) main.append(decisionBar(sequence, preview), previewChecks(preview), previewMessages(preview));
    // After a decision the button that had focus is gone: the title is where the outcome is read.
    if (refocus) focusTitle(main);
    refocus = false;
  }

  /** @param {any} sequence @param {any} preview */
  function decisionBar(sequence, preview) {
    if (!ctx.isAdmin)
      return h(
        'div',
        { class: 'notices' },
        banner('info', 'Only owners and admins can approve or reject a sequence. You can review it here.'),
      );
    const blocking = preview.checks.some((/** @type {any} */ c) => c.severity === 'blocking');
    const decided = (/** @type {any} */ s) => {
      notify(s.approval?.decision === 'rejected' ? 'info' : 'success', outcome(s));
      refocus = true;
      void load();
    };
    const conflict = (/** @type {ApiProblem} */ p) => {
      const reload = () => {
        mount(notices);
        refocus = true;
        void load();
      };
      mount(
        notices,
        h(
          'div',
          { class: 'error-state conflict' },
          banner('error', p.message, { title: 'Nothing was decided' }),
          h('button', {
            type: 'button',
            class: 'btn btn-secondary',
            text: 'Show the current revision',
            on: { click: reload },
          }),
        ),
      );
    };
    const common = { api: ctx.api, sequence, revision: preview.revision, onDecided: decided, onConflict: conflict };
    const why = blocking
      ? h('p', {
          class: 'hint',
          id: 'approve-blocked',
          text: 'A blocking check fails: it cannot be approved as it is. Reject it with a note saying what to fix.',
        })
      : null;
    const approve = h(
      'button',
      {
        type: 'button',
        class: 'btn btn-primary',
        disabled: blocking,
        'aria-describedby': why ? why.id : null,
        on: { click: () => approveDialog(common) },
      },
      icon('check'),
      h('span', { text: 'Approve' }),
    );
    const reject = h('button', {
      type: 'button',
      class: 'btn btn-secondary',
      text: 'Reject',
      on: { click: () => rejectDialog(common) },
    });
    return h(
      'section',
      { class: 'card decision', 'aria-label': 'Decision' },
      h('div', { class: 'decision-text' }, h('strong', { text: `Revision ${preview.revision}` }), why),
      h('div', { class: 'decision-actions' }, reject, approve),
    );
  }

  /** Survives the reload that follows a decision, which redraws the page around it. @param {'success' | 'info'} kind @param {string} message */
  function notify(kind, message) {
    mount(notices, banner(kind, message, { onDismiss: () => mount(notices) }));
  }
}

/** @param {any} s the sequence after a decision */
function outcome(s) {
  if (s.approval?.decision === 'rejected')
    return `Rejected: “${s.name}” is ${sequenceStatusLabel(s.status).toLowerCase()} again, with your note for its author.`;
  return `Approved revision ${s.approval?.revision ?? s.revision} of “${s.name}”: it is ${sequenceStatusLabel(s.status).toLowerCase()} and can be launched.`;
}

/** @param {any} s @param {any} sender */
function details(s, sender) {
  /** @type {Array<[string, Node | string]>} */
  const rows = [
    ['Status', sequenceStatusBadge(s.status)],
    ['Revision', String(s.revision)],
    ['Sender', senderCell(s, sender)],
    ['Schedule', scheduleText(s.schedule)],
    ['Daily limit', `${s.daily_limit} ${s.daily_limit === 1 ? 'message' : 'messages'} a day`],
    ['Tracking', trackingText(s.tracking)],
    [
      'Steps',
      s.steps
        .map(
          (/** @type {any} */ step) =>
            `${step.position}. ${step.wait_days ? `after ${step.wait_days} ${step.wait_days === 1 ? 'day' : 'days'}` : 'at once'}${step.variants?.length ? ` (A/B test of ${step.variants.length} variants)` : ''}`,
        )
        .join(' · '),
    ],
  ];
  if (s.approval) rows.push(['Last decision', approvalText(s.approval)]);
  return h(
    'section',
    { class: 'card', 'aria-label': 'Sequence details' },
    h(
      'dl',
      { class: 'details' },
      rows.flatMap(([term, value]) => [h('dt', { text: term }), h('dd', null, value)]),
    ),
  );
}

/** What the messages carry, said plainly for the person approving (docs/tracking.md). @param {any} t */
function trackingText(t) {
  return `Open tracking: ${t?.opens ? 'on' : 'off'}, Click tracking: ${t?.clicks ? 'on' : 'off'}`;
}

/** @param {any} a */
function approvalText(a) {
  const what = a.decision === 'approved' ? `Approved revision ${a.revision}` : `Rejected revision ${a.revision}`;
  return `${what} on ${fullDate(a.at)}${a.note ? ` — “${a.note}”` : ''}`;
}

/** @param {any} s @param {any} sender */
function senderCell(s, sender) {
  if (!s.sender_connector_id) return h('span', { class: 'muted', text: 'No sender chosen' });
  if (!sender) return h('code', { text: s.sender_connector_id });
  return h('span', { class: 'sender' }, h('span', { text: connectorName(sender) }), modeCell(sender));
}
