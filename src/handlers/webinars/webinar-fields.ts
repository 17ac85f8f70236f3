// A webinar's fields as schedule_webinar and update_webinar take them: checked, defaulted (over the current
// row for an update), with a sender that can mail the invitations.
import { findConnector } from '../connectors/connectors-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import { newestConnectedGmail, type WebinarFields, type WebinarRow } from './webinars-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { notConnected } from '../connectors/tokens.ts';

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

const invalid = (field: string, message: string) =>
  new ApiError('validation_failed', message, { errors: [{ field, code: 'invalid', message }] });

function validTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The sender: the one named, or the workspace's newest connected Gmail; 409 when it cannot send. */
async function senderFor(
  deps: Deps,
  q: Queryable,
  workspaceId: string,
  requested: string | null | undefined,
): Promise<string> {
  const id = requested ?? (await newestConnectedGmail(q, workspaceId));
  if (!id)
    throw new ApiError(
      'connector_not_connected',
      'Webinar invitations are mailed from a connected Gmail and this workspace has none: call start_connector_oauth with provider "gmail", have the human allow it, then schedule again.',
    );
  const connector = await findConnector(q, workspaceId, id);
  if (!connector || connector.provider !== 'gmail')
    throw invalid('sender_connector_id', `No Gmail connector ${id} in this workspace.`);
  if (connector.status !== 'connected') throw notConnected(connector);
  return connector.id;
}

export async function fieldsFrom(
  deps: Deps,
  q: Queryable,
  workspaceId: string,
  input: WebinarInput,
  current?: WebinarRow,
): Promise<WebinarFields> {
  const startAt = input.start_at !== undefined ? new Date(input.start_at) : current?.start_at;
  if (!startAt || Number.isNaN(startAt.getTime()))
    throw invalid('start_at', 'start_at must be a date-time such as 2026-12-01T15:00:00Z.');
  if (input.start_at !== undefined && startAt <= deps.clock.now())
    throw invalid('start_at', 'start_at must be in the future.');
  const timezone = input.timezone ?? current?.timezone ?? 'UTC';
  if (!validTimezone(timezone)) throw invalid('timezone', `${timezone} is not an IANA time zone (e.g. Europe/Paris).`);
  const meetingUrl = input.meeting_url ?? current?.meeting_url ?? '';
  if (!/^https:\/\/[^\s]+$/.test(meetingUrl))
    throw invalid('meeting_url', 'meeting_url must be an https link to the video meeting.');
  const sender =
    input.sender_connector_id !== undefined || !current
      ? await senderFor(deps, q, workspaceId, input.sender_connector_id)
      : current.sender_connector_id;
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
