import type { UpdateWebinarInput, UpdateWebinarOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { planInvitationUpdate } from './mail-plan.ts';
import { fieldsFrom, type WebinarInput } from './webinar-fields.ts';
import { requireWebinar, viewWebinar } from './webinar-record.ts';
import { registeredOf } from './webinar-registrants-data.ts';
import { updateWebinarFields, type WebinarFields, type WebinarRow } from './webinars-data.ts';
import { webinarBody, webinarEventData, type WebinarView } from './wire.ts';

/** What changed that registrants' calendars show; capacity or the sender change nothing they see. */
function invitationChanges(before: WebinarRow, after: WebinarFields): { time: boolean; invitation: boolean } {
  const time =
    after.start_at.getTime() !== before.start_at.getTime() ||
    after.duration_minutes !== before.duration_minutes ||
    after.timezone !== before.timezone;
  // The join link in the invitation stays the same, but the meeting it leads to is news worth a mail.
  const details =
    after.title !== before.title ||
    after.description !== before.description ||
    after.meeting_url !== before.meeting_url;
  return { time, invitation: time || details };
}

/** Changes a scheduled webinar; a change to anything the invitation shows re-invites every registrant. */
export async function updateWebinar(deps: Deps, actor: Actor, id: string, patch: WebinarInput): Promise<WebinarView> {
  const row = await deps.db.sql.begin(async (tx) => {
    const current = await requireWebinar(tx, actor.workspaceId, id, { forUpdate: true });
    if (current.status !== 'scheduled')
      throw new ApiError(
        'webinar_cancelled',
        `Webinar ${id} was cancelled and cannot change; schedule_webinar a new one.`,
      );
    if (Object.keys(patch).length === 0) return current;
    const fields = await fieldsFrom(deps, tx, actor.workspaceId, patch, current);
    const changed = invitationChanges(current, fields);
    const updated = await updateWebinarFields(tx, actor.workspaceId, id, fields, {
      invitationChanged: changed.invitation,
      now: deps.clock.now(),
    });
    if (changed.invitation)
      await planInvitationUpdate(deps, tx, updated, await registeredOf(tx, actor.workspaceId, id));
    const data = { ...webinarEventData(updated), time_changed: changed.time, invitation_changed: changed.invitation };
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'webinar.updated', data);
    return updated;
  });
  return viewWebinar(deps, row);
}

export async function handle(input: UpdateWebinarInput, ctx: HandlerContext): Promise<UpdateWebinarOutput> {
  return {
    status: 200,
    body: webinarBody(await updateWebinar(ctx.deps, actorFrom(ctx), input.path.webinar_id, input.body)),
  };
}
