// A sequence's preview as the reviewer reads it: the checks (blocking ones first and marked), then each
// preview lead's messages, step by step, with subject and text part. The HTML part is someone's markup:
// it never reaches the DOM as HTML (Trusted Types forbid it, srcdoc included) and shows as source text.
import { badge, h, icon } from './dom.js';

/** @param {any} preview an EmailSequencePreview */
export function previewChecks(preview) {
  const checks = [...preview.checks].sort((a, b) => rank(a) - rank(b));
  const blocking = checks.filter((c) => c.severity === 'blocking').length;
  const summary = !checks.length
    ? 'All checks pass.'
    : blocking
      ? `${blocking} blocking ${blocking === 1 ? 'problem' : 'problems'}: this revision cannot be sent as it is.`
      : `${checks.length} ${checks.length === 1 ? 'warning' : 'warnings'}.`;
  return h(
    'section',
    { class: 'card section', 'aria-labelledby': 'checks-title' },
    h(
      'div',
      { class: 'card-header' },
      h(
        'div',
        null,
        h('h2', { id: 'checks-title', class: 'card-title', text: 'Checks' }),
        h('p', { class: 'card-description', text: summary }),
      ),
    ),
    checks.length ? h('ul', { class: 'check-list', 'aria-label': 'Checks' }, checks.map(checkItem)) : null,
  );
}

/** @param {{ severity: string }} c */
const rank = (c) => (c.severity === 'blocking' ? 0 : 1);

/** @param {any} c */
function checkItem(c) {
  const blocking = c.severity === 'blocking';
  const where = [c.step ? `step ${c.step}` : null, c.lead_id ? `lead ${c.lead_id}` : null].filter(Boolean).join(', ');
  return h(
    'li',
    {
      class: `check ${blocking ? 'check-blocking' : 'check-warning'}`,
      dataset: { code: c.code, severity: c.severity },
    },
    icon('alert', 'icon check-icon'),
    h(
      'div',
      { class: 'check-body' },
      h(
        'span',
        { class: 'check-head' },
        badge(blocking ? 'Blocking' : 'Warning', blocking ? 'red' : 'amber'),
        h('code', { class: 'check-code', text: c.code }),
      ),
      h('span', { text: c.message }),
      where ? h('span', { class: 'cell-sub', text: where }) : null,
    ),
  );
}

/** @param {any} preview an EmailSequencePreview */
export function previewMessages(preview) {
  const body = preview.leads.length
    ? preview.leads.map(leadSection)
    : h('p', {
        class: 'empty-text preview-empty',
        text: 'No lead to render this sequence for: add leads to the workspace to see it with their details.',
      });
  return h(
    'section',
    { class: 'card section', 'aria-labelledby': 'preview-title' },
    h(
      'div',
      { class: 'card-header' },
      h(
        'div',
        null,
        h('h2', { id: 'preview-title', class: 'card-title', text: 'Rendered messages' }),
        h('p', {
          class: 'card-description',
          text: `Exactly as revision ${preview.revision} would be sent, for up to 5 leads of this workspace.`,
        }),
      ),
    ),
    body,
  );
}

/** @param {any} lead */
function leadSection(lead) {
  return h(
    'section',
    { class: 'preview-lead', 'aria-label': `Messages to ${lead.email}`, dataset: { leadId: lead.lead_id ?? 'sample' } },
    h(
      'h3',
      { class: 'preview-lead-title' },
      icon('mail'),
      h('span', { text: lead.email }),
      lead.sample ? badge('Sample lead', 'gray') : null,
    ),
    h('ol', { class: 'preview-steps' }, lead.messages.map(stepItem)),
  );
}

/** @param {any} m */
function stepItem(m) {
  const unresolved = m.unresolved.length
    ? h(
        'p',
        { class: 'preview-unresolved', role: 'note' },
        icon('alert'),
        `Not sent to this lead: no value for ${m.unresolved.join(', ')}.`,
      )
    : null;
  // Every variant of an A/B-tested step is rendered: the approval covers them all.
  const variant = m.variant ? ` · variant ${String.fromCharCode(64 + m.variant)}` : '';
  return h(
    'li',
    {
      class: 'preview-step',
      dataset: { step: String(m.position), ...(m.variant ? { variant: String(m.variant) } : {}) },
    },
    h('p', { class: 'preview-step-label', text: `Step ${m.position}${variant}` }),
    h(
      'p',
      { class: 'preview-subject' },
      h('span', { class: 'muted', text: 'Subject: ' }),
      h('strong', { text: m.subject }),
    ),
    unresolved,
    h('pre', { class: 'mail-text', 'aria-label': `Text of step ${m.position}${variant}`, text: m.text }),
    h(
      'details',
      { class: 'preview-html' },
      h('summary', { text: 'HTML part (source)' }),
      h('pre', { class: 'mail-text mail-source', text: m.html }),
    ),
  );
}
