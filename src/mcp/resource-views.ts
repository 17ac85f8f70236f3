// Workspace objects rendered as text for resources/read: what an agent attaches as context reads better as a
// few labelled lines than as the REST body. Pure: a REST body in, Markdown out.

type Body = Record<string, unknown>;

const str = (v: unknown) => (v === null || v === undefined || v === '' ? undefined : String(v));
const yesNo = (v: unknown) => (v ? 'yes' : 'no');

export function settingsText(body: Body): string {
  const address = str(body.postal_address);
  return [
    '# Workspace settings',
    `- Postal address: ${address ?? 'none (no sequence can launch until one is set)'}`,
    `- Sequences need a person's approval: ${yesNo(body.require_human_approval)}`,
    `- Most messages one mailbox sends in 24 hours: ${str(body.mailbox_daily_cap) ?? 'unknown'}`,
  ].join('\n');
}

function scheduleLine(schedule: unknown): string | undefined {
  if (typeof schedule !== 'object' || schedule === null) return undefined;
  const s = schedule as Body;
  const days = Array.isArray(s.days) ? s.days.join(', ') : '';
  return `${days} ${str(s.start_hour) ?? '?'}:00–${str(s.end_hour) ?? '?'}:00 ${str(s.timezone) ?? ''}`.trim();
}

function approvalLine(body: Body): string {
  const approval = body.approval as Body | null | undefined;
  const url = str(body.approval_url);
  if (approval) {
    const parts = [str(approval.decision), str(approval.by) && `by ${str(approval.by)}`, str(approval.at)];
    const note = str(approval.note);
    return `${parts.filter(Boolean).join(' ')} (revision ${str(approval.revision) ?? '?'})${note ? `: "${note}"` : ''}`;
  }
  return url ? `waiting for a person at ${url}` : 'not submitted';
}

function stepLines(steps: unknown): string[] {
  if (!Array.isArray(steps) || steps.length === 0) return ['(no steps)'];
  return (steps as Body[]).flatMap((step, i) => {
    const wait = i === 0 ? 'first' : `after ${str(step.wait_days) ?? 0} day(s)`;
    const versions = Array.isArray(step.variants) && step.variants.length ? (step.variants as Body[]) : [step];
    return versions.flatMap((v) => {
      const subject = str(v.subject) ?? (step.in_thread ? '(in the previous thread)' : '(no subject)');
      const label = str(v.label) ? ` [variant ${str(v.label)}, weight ${str(v.weight)}]` : '';
      const body = String(v.body ?? '')
        .split('\n')
        .map((line) => `   ${line}`);
      return [`${i + 1}. ${wait}${label}: ${subject}`, ...body, ''];
    });
  });
}

export function sequenceText(body: Body): string {
  const stats = typeof body.stats === 'object' && body.stats !== null ? (body.stats as Body) : {};
  const statLine = Object.entries(stats)
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(', ');
  const pause = str(body.pause_reason);
  return [
    `# ${str(body.name) ?? str(body.id) ?? 'Email sequence'}`,
    `- Sequence: ${str(body.id) ?? '?'}, revision ${str(body.revision) ?? '?'}`,
    `- Status: ${str(body.status) ?? '?'}${pause ? ` (paused: ${pause})` : ''}`,
    `- Approval: ${approvalLine(body)}`,
    `- Sender mailboxes: ${Array.isArray(body.sender_connector_ids) && body.sender_connector_ids.length ? body.sender_connector_ids.join(', ') : (str(body.sender_connector_id) ?? 'none')}`,
    `- Schedule: ${scheduleLine(body.schedule) ?? 'default'}, up to ${str(body.daily_limit) ?? '?'} a day`,
    `- Stops on reply: ${yesNo(body.stop_on_reply)}; on auto-reply: ${yesNo(body.stop_on_auto_reply)}`,
    `- Stats: ${statLine || 'none yet'}`,
    '',
    '## Steps',
    ...stepLines(body.steps),
  ]
    .join('\n')
    .trimEnd();
}
