import { randomBytes } from 'node:crypto';
import type { ScheduleWebinarInput, ScheduleWebinarOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { fieldsFrom, type WebinarInput } from './webinar-fields.ts';
import { viewWebinar } from './webinar-record.ts';
import { insertWebinar } from './webinars-data.ts';
import { webinarBody, webinarEventData, type WebinarView } from './wire.ts';

/** Schedules a webinar with a sender that can mail its invitations, and a public registration page. */
export async function scheduleWebinar(deps: Deps, actor: Actor, input: WebinarInput): Promise<WebinarView> {
  const row = await deps.db.sql.begin(async (tx) => {
    const fields = await fieldsFrom(deps, tx, actor.workspaceId, input);
    const publicId = `wbp_${randomBytes(16).toString('base64url')}`;
    const created = await insertWebinar(tx, actor.workspaceId, deps.ids, {
      ...fields,
      publicId,
      createdBy: actor.userId,
      now: deps.clock.now(),
    });
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'webinar.scheduled', webinarEventData(created));
    return created;
  });
  return viewWebinar(deps, row);
}

export async function handle(input: ScheduleWebinarInput, ctx: HandlerContext): Promise<ScheduleWebinarOutput> {
  return { status: 201, body: webinarBody(await scheduleWebinar(ctx.deps, actorFrom(ctx), input.body)) };
}
