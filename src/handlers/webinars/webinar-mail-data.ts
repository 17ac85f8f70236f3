// The mail each registrant gets (migration 0017): one row per (registrant, kind, ical_sequence), so a retry,
// a second sender or a repeated request can never send the same mail twice. A row moves scheduled ->
// sending (committed before the provider call) -> sent / failed / skipped; a sender that dies leaves
// `sending`, which the sweep turns `uncertain` (perhaps delivered: never retried). Tenant rows: every function
// takes the workspace id right after the queryable, except the sender's two sweeps (`…AcrossWorkspaces`),
// whose rows name their workspace.
import type { Ids } from '../../deps.ts';
import { query, type Queryable } from '../../db/queryable.ts';

export type MailKind = 'confirmation' | 'update' | 'cancellation' | 'reminder_24h' | 'reminder_1h';
export type MailStatus = 'scheduled' | 'sending' | 'sent' | 'failed' | 'skipped' | 'uncertain';

export interface MailRow {
  id: string;
  workspace_id: string;
  webinar_id: string;
  registrant_id: string;
  kind: MailKind;
  ical_sequence: number;
  status: MailStatus;
  due_at: Date;
  sent_at: Date | null;
  attempts: number;
  to_email: string;
  provider_message_id: string | null;
  error_code: string | null;
}

export interface NewMail {
  registrantId: string;
  toEmail: string;
  kind: MailKind;
  icalSequence: number;
  dueAt: Date;
}

const columns = (q: Queryable) => query(q)`
  id, workspace_id, webinar_id, registrant_id, kind, ical_sequence, status, due_at, sent_at, attempts, to_email, provider_message_id, error_code`;

/** Queues mail; a row that already exists (same registrant, kind and sequence) is left as it is. */
export async function queueMail(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  webinarId: string,
  mails: NewMail[],
  now: Date,
): Promise<void> {
  for (const m of mails) {
    await query(q)`
      insert into webinar_mail (id, workspace_id, webinar_id, registrant_id, kind, ical_sequence, status, due_at, to_email, created_at)
      values (${ids.make('wmail')}, ${workspaceId}, ${webinarId}, ${m.registrantId}, ${m.kind}, ${m.icalSequence}, 'scheduled', ${m.dueAt}, ${m.toEmail}, ${now})
      on conflict (registrant_id, kind, ical_sequence) do nothing`;
  }
}

/** Moves unsent reminders of a webinar to new due times (its start moved). */
export async function rescheduleReminders(
  q: Queryable,
  workspaceId: string,
  webinarId: string,
  kind: MailKind,
  dueAt: Date,
): Promise<void> {
  await query(q)`
    update webinar_mail set due_at = ${dueAt}
    where workspace_id = ${workspaceId} and webinar_id = ${webinarId} and kind = ${kind} and status = 'scheduled'`;
}

/** Drops unsent mail that no longer applies (a removed registrant, a cancelled webinar's reminders). */
export async function skipScheduled(
  q: Queryable,
  workspaceId: string,
  target: { webinarId?: string; registrantId?: string; kinds: MailKind[] },
  code: string,
): Promise<void> {
  const sql = query(q);
  await sql`
    update webinar_mail set status = 'skipped', error_code = ${code}
    where workspace_id = ${workspaceId} and status = 'scheduled' and kind = any(${sql.array(target.kinds)}::text[])
      ${target.webinarId ? sql`and webinar_id = ${target.webinarId}` : sql``}
      ${target.registrantId ? sql`and registrant_id = ${target.registrantId}` : sql``}`;
}

/** Takes due mail for sending, across workspaces (the sender job serves them all); each row goes to one taker. */
export async function takeDueMailAcrossWorkspaces(q: Queryable, now: Date, limit: number): Promise<MailRow[]> {
  return query(q)<MailRow[]>`
    update webinar_mail set status = 'sending', sending_at = ${now}, attempts = attempts + 1
    where id in (select id from webinar_mail where status = 'scheduled' and due_at <= ${now} order by due_at, id limit ${limit} for update skip locked)
    returning ${columns(q)}`;
}

export interface MailEnd {
  status: 'sent' | 'failed' | 'skipped' | 'scheduled' | 'uncertain';
  providerMessageId?: string;
  code?: string;
  message?: string;
  retryAt?: Date;
}

export async function settleMail(
  q: Queryable,
  workspaceId: string,
  id: string,
  end: MailEnd,
  now: Date,
): Promise<void> {
  await query(q)`
    update webinar_mail set status = ${end.status}, sent_at = ${end.status === 'sent' ? now : null}, provider_message_id = ${end.providerMessageId ?? null},
      error_code = ${end.code ?? null}, error_message = ${end.message ?? null}, due_at = coalesce(${end.retryAt ?? null}::timestamptz, due_at)
    where id = ${id} and workspace_id = ${workspaceId} and status = 'sending'`;
}

/** Mail left `sending` by a sender that stopped: it may have gone out, so it is never retried. */
export async function markStaleSendingUncertainAcrossWorkspaces(q: Queryable, before: Date): Promise<number> {
  const rows = await query(q)`
    update webinar_mail set status = 'uncertain', error_code = 'send_interrupted'
    where status = 'sending' and sending_at < ${before} returning id`;
  return rows.length;
}

export function listMailOf(q: Queryable, workspaceId: string, webinarId: string): Promise<MailRow[]> {
  return query(q)<
    MailRow[]
  >`select ${columns(q)} from webinar_mail where workspace_id = ${workspaceId} and webinar_id = ${webinarId} order by due_at, id`;
}

/** What a registrant's mail looks like to the API: its kind, state, and why it failed or was skipped. */
export type RegistrantMailRow = Pick<
  MailRow,
  'registrant_id' | 'kind' | 'ical_sequence' | 'status' | 'due_at' | 'sent_at' | 'attempts' | 'error_code'
> & {
  error_message: string | null;
};

export function mailOfRegistrants(
  q: Queryable,
  workspaceId: string,
  registrantIds: string[],
): Promise<RegistrantMailRow[]> {
  if (registrantIds.length === 0) return Promise.resolve([]);
  const sql = query(q);
  return sql<RegistrantMailRow[]>`
    select registrant_id, kind, ical_sequence, status, due_at, sent_at, attempts, error_code, error_message
    from webinar_mail
    where workspace_id = ${workspaceId} and registrant_id = any(${sql.array(registrantIds)}::text[])
    order by due_at, created_at, id`;
}

export type MailCounts = Record<MailStatus, number>;

/** Each webinar's mail by state: a glance at whether its mail is going out. */
export async function mailCounts(
  q: Queryable,
  workspaceId: string,
  webinarIds: string[],
): Promise<Map<string, MailCounts>> {
  const sql = query(q);
  const rows = await sql<Array<{ webinar_id: string; status: MailStatus; n: number }>>`
    select webinar_id, status, count(*)::int as n from webinar_mail
    where workspace_id = ${workspaceId} and webinar_id = any(${sql.array(webinarIds)}::text[])
    group by webinar_id, status`;
  const out = new Map<string, MailCounts>();
  for (const r of rows) {
    const counts = out.get(r.webinar_id) ?? emptyMailCounts();
    counts[r.status] = r.n;
    out.set(r.webinar_id, counts);
  }
  return out;
}

export const emptyMailCounts = (): MailCounts => ({
  scheduled: 0,
  sending: 0,
  sent: 0,
  failed: 0,
  skipped: 0,
  uncertain: 0,
});
