// Sequences → one sequence: its status and the actions it allows (pause, resume, archive after a confirmation),
// how it sends (schedule, mailboxes, tracking), its results as charts, its steps and variants, and its leads.
import { launchDialog, submitForApproval } from './sequence-authoring.js';
import { allPages, ApiProblem } from './api.js';
import { appLink } from './app-link.js';
import { connectorName } from './connector-words.js';
import { confirmDialog } from './dialogs.js';
import { banner, h, mount } from './dom.js';
import { fullDate, timeElement } from './format.js';
import { analyticsCard } from './sequence-charts.js';
import { enrollmentsCard } from './sequence-enrollments.js';
import { stepsCard } from './sequence-steps.js';
import { scheduleText, sequenceStatusBadge } from './sequence-words.js';
import { errorState, focusTitle, loadingState, pageHeader } from './shell.js';

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 */
export function sequencePage(main, ctx) {
  const id = ctx.params.id;
  document.title = 'Sequence · Sequences · Agent Platform';
  /** @type {Promise<Map<string, any>>} */
  const connectors = allPages((c) => ctx.api.list_connectors({ limit: 50, cursor: c ?? undefined }))
    .then((list) => new Map(list.map((c) => [c.id, c])))
    .catch(() => new Map());

  const load = async () => {
    mount(main, backLink(ctx), loadingState('Loading the sequence…'));
    try {
      const [sequence, mailboxes] = await Promise.all([ctx.api.get_email_sequence({ sequence_id: id }), connectors]);
      if (!ctx.alive()) return;
      draw(sequence, mailboxes, null);
    } catch (error) {
      if (!ctx.alive() || (error instanceof ApiProblem && error.status === 401)) return;
      const message =
        error instanceof ApiProblem && error.status === 404
          ? 'This sequence does not exist in this workspace (or was deleted).'
          : error instanceof Error
            ? error.message
            : String(error);
      mount(
        main,
        backLink(ctx),
        pageHeader({ title: 'Sequence', description: '' }),
        errorState(message, () => void load()),
      );
    }
  };

  /** @param {any} sequence @param {Map<string, any>} mailboxes @param {{ kind: 'success' | 'error', message: string } | null} notice */
  function draw(sequence, mailboxes, notice) {
    document.title = `${sequence.name} · Sequences · Agent Platform`;
    const mailboxName = (/** @type {string} */ cid) => {
      const c = mailboxes.get(cid);
      return c ? `${connectorName(c)}${c.mode === 'sandbox' ? ' (sandbox)' : ''}` : cid;
    };
    const actions = actionBar(ctx, sequence, (next, message) => {
      draw(next, mailboxes, message ? { kind: 'success', message } : null);
      focusTitle(main);
    });
    mount(
      main,
      backLink(ctx),
      pageHeader({
        title: sequence.name,
        description: `Revision ${sequence.revision}, created ${fullDate(sequence.created_at)}.`,
        action: actions.element,
      }),
      h('div', { class: 'seq-status-line' }, sequenceStatusBadge(sequence.status), statusNote(ctx, sequence)),
      h('div', { class: 'notices', role: 'status' }, notice ? banner(notice.kind, notice.message) : null),
      actions.errorSlot,
      overviewCard(sequence, mailboxName),
      analyticsCard(ctx, sequence),
      stepsCard(sequence),
      enrollmentsCard(ctx, sequence, mailboxName),
    );
  }

  void load();
}

/** @param {import('./app.js').PageContext} ctx */
function backLink(ctx) {
  const link = appLink(ctx.navigate, '/admin/sequences', '', 'back-link');
  link.append(h('span', { 'aria-hidden': 'true', text: '← ' }), 'All sequences');
  return link;
}

/** What the status means now, with the page that acts on it. @param {import('./app.js').PageContext} ctx @param {any} s */
function statusNote(ctx, s) {
  if (s.status === 'pending_approval')
    return h(
      'span',
      { class: 'muted' },
      'Waiting for a person’s approval: ',
      appLink(ctx.navigate, `/admin/approvals?sequence=${encodeURIComponent(s.id)}`, 'review it in Approvals'),
    );
  if (s.status === 'paused' && s.pause_reason) return h('span', { class: 'muted', text: `Paused: ${s.pause_reason}` });
  if (s.launched_at)
    return h('span', { class: 'muted' }, 'Launched ', timeElement(s.launched_at, { relativeTime: true }));
  return null;
}

/**
 * Submit (draft), launch (approved) or enroll more leads (active, paused), pause (active), resume (paused), archive
 * (anything not archived, after a confirmation).
 * @param {import('./app.js').PageContext} ctx
 * @param {any} s
 * @param {(next: any, message: string) => void} done
 */
function actionBar(ctx, s, done) {
  const errorSlot = h('div', { class: 'notices' });
  const sequenceId = s.id;
  /** @param {string} label @param {string} busyLabel @param {() => Promise<any>} call @param {string} message */
  const button = (label, busyLabel, call, message, className = 'btn btn-secondary') => {
    const b = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: className, text: label }));
    b.addEventListener('click', async () => {
      b.disabled = true;
      b.textContent = busyLabel;
      mount(errorSlot);
      try {
        const next = await call();
        if (ctx.alive()) done(next, message);
      } catch (error) {
        if (!ctx.alive()) return;
        b.disabled = false;
        b.textContent = label;
        mount(errorSlot, banner('error', error instanceof Error ? error.message : String(error)));
      }
    });
    return b;
  };
  const get = () => ctx.api.get_email_sequence({ sequence_id: sequenceId });
  const pause =
    s.status === 'active'
      ? button(
          'Pause',
          'Pausing…',
          async () => (await ctx.api.pause_email_sequence({ sequence_id: sequenceId }), get()),
          'Paused: nothing more is sent until you resume it.',
        )
      : null;
  const resume =
    s.status === 'paused'
      ? button(
          'Resume',
          'Resuming…',
          async () => (await ctx.api.resume_email_sequence({ sequence_id: sequenceId }), get()),
          'Resumed: due messages are sent within its sending window.',
          'btn btn-primary',
        )
      : null;
  const archive =
    s.status === 'archived'
      ? null
      : /** @type {HTMLButtonElement} */ (
          h('button', { type: 'button', class: 'btn btn-ghost-danger', text: 'Archive' })
        );
  archive?.addEventListener('click', async () => {
    /** @type {any} */
    let next = null;
    const ok = await confirmDialog({
      title: `Archive “${s.name}”?`,
      message: [
        'Its enrolled leads stop and its unsent messages are cancelled. What it sent and its results stay. This cannot be undone.',
      ],
      confirmLabel: 'Archive sequence',
      busyLabel: 'Archiving…',
      action: async () => {
        await ctx.api.archive_email_sequence({ sequence_id: sequenceId });
        next = await get();
      },
    });
    if (ok && next && ctx.alive()) done(next, 'Archived: it sends nothing more.');
  });
  const submit =
    s.status === 'draft'
      ? button(
          'Submit for approval',
          'Submitting…',
          async () => (await submitForApproval(ctx, s), get()),
          'Submitted: a person reviews the rendered preview under Approvals, then you can launch it.',
          'btn btn-primary',
        )
      : null;
  // Approved: launch with the leads to enroll. Active or paused: the same dialog enrolls more leads.
  const launchable = s.status === 'approved' || s.status === 'active' || s.status === 'paused';
  const launch = launchable
    ? /** @type {HTMLButtonElement} */ (
        h('button', {
          type: 'button',
          class: s.status === 'approved' ? 'btn btn-primary' : 'btn btn-secondary',
          text: s.status === 'approved' ? 'Launch' : 'Enroll leads',
        })
      )
    : null;
  launch?.addEventListener('click', () =>
    launchDialog(ctx, s, {
      onLaunched: async (result) => {
        const enrolled = result.enrollment?.counts?.enrolled;
        const skipped = result.enrollment?.counts?.skipped;
        const next = await get().catch(() => result.sequence);
        if (!ctx.alive()) return;
        const who =
          typeof enrolled === 'number'
            ? ` ${enrolled} lead${enrolled === 1 ? '' : 's'} enrolled${skipped ? `, ${skipped} skipped (unsubscribed or already in it)` : ''}.`
            : '';
        done(next, s.status === 'approved' ? `Launched.${who}` : `Done.${who}`);
      },
    }),
  );
  const sent = appLink(
    ctx.navigate,
    `/admin/sent-messages?sequence_id=${encodeURIComponent(sequenceId)}`,
    'Sent messages',
    'btn btn-secondary',
  );
  return {
    element: h('div', { class: 'seq-actions' }, sent, submit, launch, pause, resume, archive),
    errorSlot,
  };
}

/** @param {any} s @param {(id: string) => string} mailboxName */
function overviewCard(s, mailboxName) {
  const ids = s.sender_connector_ids?.length
    ? s.sender_connector_ids
    : s.sender_connector_id
      ? [s.sender_connector_id]
      : [];
  const tracking = [s.tracking?.opens ? 'opens' : null, s.tracking?.clicks ? 'clicks' : null].filter(Boolean);
  const stats = s.stats ?? {};
  const rows = [
    ['Schedule', s.schedule ? scheduleText(s.schedule) : '—'],
    ['Mailboxes', ids.length ? ids.map(mailboxName).join(', ') : 'None chosen'],
    ['Daily limit', s.daily_limit ? `${s.daily_limit} messages a day` : '—'],
    ['Tracking', tracking.length ? `On: ${tracking.join(' and ')}` : 'Off'],
    ['On reply', s.stop_on_reply ? 'Stops for that lead' : 'Keeps sending'],
    ['Enrolled', String(stats.enrolled ?? 0)],
    ['Scheduled', String(stats.scheduled ?? 0)],
  ];
  return h(
    'section',
    { class: 'card section', 'aria-labelledby': 'overview-title' },
    h('div', { class: 'card-header' }, h('h2', { id: 'overview-title', class: 'card-title', text: 'How it sends' })),
    h(
      'dl',
      { class: 'seq-facts' },
      rows.map(([term, value]) => h('div', { class: 'seq-fact' }, h('dt', { text: term }), h('dd', { text: value }))),
    ),
  );
}
