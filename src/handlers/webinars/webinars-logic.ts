// Webinars as records: schedule (with a sender that can mail invitations), read, list, update (a change to
// anything the invitation shows re-invites every registrant) and cancel (every registrant is told).
import { randomBytes } from 'node:crypto';
import { findConnector } from '../connectors/connectors-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import { emptyMailCounts, mailCounts } from './webinar-mail-data.ts';
import { registeredOf } from './webinar-registrants-data.ts';
import { cancelWebinarRow, findWebinar, insertWebinar, listWebinars as listRows, newestConnectedGmail, updateWebinarFields, webinarCounts, type WebinarFields, type WebinarRow, type WebinarStatus } from './webinars-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { notConnected } from '../connectors/tokens.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { planCancellation, planInvitationUpdate } from './mail-plan.ts';
import { registrationUrl, webinarEventData, type WebinarView } from './wire.ts';

export interface WebinarInput {
  title?: string;
  description?: string;
  start_at?: string;
  duration_minutes?: number;
  timezone?: string;
  capacity?: number | null;
  meeting_url?: string;
  sender_connector_id?: string | null;
}

const invalid = (field: string, message: string) => new ApiError('validation_failed', message, { errors: [{ field, code: 'invalid', message }] });

function validTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The sender: the one named, or the workspace's newest connected Gmail; 409 when it cannot send. */
async function senderFor(deps: Deps, q: Queryable, workspaceId: string, requested: string | null | undefined): Promise<string> {
  const id = requested ?? (await newestConnectedGmail(q, workspaceId));
  if (!id) throw new ApiError('connector_not_connected', 'Webinar invitations are mailed from a connected Gmail and this workspace has none: call start_connector_oauth with provider "gmail", have the human allow it, then schedule again.');
  const connector = await findConnector(q, workspaceId, id);
  if (!connector || connector.provider !== 'gmail') throw invalid('sender_connector_id', `No Gmail connector ${id} in this workspace.`);
  if (connector.status !== 'connected') throw notConnected(connector);
  return connector.id;
}

async function fieldsFrom(deps: Deps, q: Queryable, workspaceId: string, input: WebinarInput, current?: WebinarRow): Promise<WebinarFields> {
  const startAt = input.start_at !== undefined ? new Date(input.start_at) : current?.start_at;
  if (!startAt || Number.isNaN(startAt.getTime())) throw invalid('start_at', 'start_at must be a date-time such as 2026-12-01T15:00:00Z.');
  if (input.start_at !== undefined && startAt <= deps.clock.now()) throw invalid('start_at', 'start_at must be in the future.');
  const timezone = input.timezone ?? current?.timezone ?? 'UTC';
  if (!validTimezone(timezone)) throw invalid('timezone', `${timezone} is not an IANA time zone (e.g. Europe/Paris).`);
  const meetingUrl = input.meeting_url ?? current?.meeting_url ?? '';
  if (!/^https:\/\/[^\s]+$/.test(meetingUrl)) throw invalid('meeting_url', 'meeting_url must be an https link to the video meeting.');
  const sender = input.sender_connector_id !== undefined || !current ? await senderFor(deps, q, workspaceId, input.sender_connector_id) : current.sender_connector_id;
  return {
    title: input.title ?? current?.title ?? '',
    description: input.description ?? current?.description ?? '',
    start_at: startAt,
    duration_minutes: input.duration_minutes ?? current?.duration_minutes ?? 60,
    timezone,
    capacity: input.capacity !== undefined ? input.capacity : (current?.capacity ?? null),
    meeting_url: meetingUrl,
    sender_connector_id: sender,
  };
}

/** What changed that registrants' calendars show; capacity or the sender change nothing they see. */
function invitationChanges(before: WebinarRow, after: WebinarFields): { time: boolean; invitation: boolean } {
  const time = after.start_at.getTime() !== before.start_at.getTime() || after.duration_minutes !== before.duration_minutes || after.timezone !== before.timezone;
  // The join link in the invitation stays the same, but the meeting it leads to is news worth a mail.
  const details = after.title !== before.title || after.description !== before.description || after.meeting_url !== before.meeting_url;
  return { time, invitation: time || details };
}

export async function viewWebinars(deps: Deps, workspaceId: string, rows: WebinarRow[]): Promise<WebinarView[]> {
  const ids = rows.map((r) => r.id);
  const counts = rows.length ? await webinarCounts(deps.db.sql, workspaceId, ids) : new Map();
  const mail = rows.length ? await mailCounts(deps.db.sql, workspaceId, ids) : new Map();
  return rows.map((row) => ({ row, counts: counts.get(row.id) ?? { registered: 0, joined: 0 }, mail: mail.get(row.id) ?? emptyMailCounts(), registrationUrl: registrationUrl(deps, row) }));
}

const viewWebinar = async (deps: Deps, row: WebinarRow): Promise<WebinarView> => (await viewWebinars(deps, row.workspace_id, [row]))[0];

export async function requireWebinar(q: Queryable, workspaceId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<WebinarRow> {
  const row = await findWebinar(q, workspaceId, id, options);
  if (!row) throw new ApiError('not_found', `No webinar ${id} in this workspace.`);
  return row;
}

export async function scheduleWebinar(deps: Deps, actor: Actor, input: WebinarInput): Promise<WebinarView> {
  const row = await deps.db.sql.begin(async (tx) => {
    const fields = await fieldsFrom(deps, tx, actor.workspaceId, input);
    const publicId = `wbp_${randomBytes(16).toString('base64url')}`;
    const created = await insertWebinar(tx, actor.workspaceId, deps.ids, { ...fields, publicId, createdBy: actor.userId, now: deps.clock.now() });
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'webinar.scheduled', webinarEventData(created));
    return created;
  });
  return viewWebinar(deps, row);
}

export async function getWebinar(deps: Deps, actor: Actor, id: string): Promise<WebinarView> {
  return viewWebinar(deps, await requireWebinar(deps.db.sql, actor.workspaceId, id));
}

export async function listWebinars(deps: Deps, actor: Actor, page: { statuses: WebinarStatus[]; before?: { at: string; id: string }; limit: number }): Promise<WebinarView[]> {
  return viewWebinars(deps, actor.workspaceId, await listRows(deps.db.sql, actor.workspaceId, page));
}

export async function updateWebinar(deps: Deps, actor: Actor, id: string, patch: WebinarInput): Promise<WebinarView> {
  const row = await deps.db.sql.begin(async (tx) => {
    const current = await requireWebinar(tx, actor.workspaceId, id, { forUpdate: true });
    if (current.status !== 'scheduled') throw new ApiError('webinar_cancelled', `Webinar ${id} was cancelled and cannot change; schedule_webinar a new one.`);
    if (Object.keys(patch).length === 0) return current;
    const fields = await fieldsFrom(deps, tx, actor.workspaceId, patch, current);
    const changed = invitationChanges(current, fields);
    const updated = await updateWebinarFields(tx, actor.workspaceId, id, fields, { invitationChanged: changed.invitation, now: deps.clock.now() });
    if (changed.invitation) await planInvitationUpdate(deps, tx, updated, await registeredOf(tx, actor.workspaceId, id));
    const data = { ...webinarEventData(updated), time_changed: changed.time, invitation_changed: changed.invitation };
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'webinar.updated', data);
    return updated;
  });
  return viewWebinar(deps, row);
}

export async function cancelWebinar(deps: Deps, actor: Actor, id: string): Promise<WebinarView> {
  const row = await deps.db.sql.begin(async (tx) => {
    const current = await requireWebinar(tx, actor.workspaceId, id, { forUpdate: true });
    if (current.status === 'cancelled') return current;
    const cancelled = (await cancelWebinarRow(tx, actor.workspaceId, id, deps.clock.now())) as WebinarRow;
    await planCancellation(deps, tx, cancelled, await registeredOf(tx, actor.workspaceId, id));
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'webinar.cancelled', webinarEventData(cancelled));
    return cancelled;
  });
  return viewWebinar(deps, row);
}
