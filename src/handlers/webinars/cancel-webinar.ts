import type { CancelWebinarInput, CancelWebinarOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { planCancellation } from './mail-plan.ts';
import { requireWebinar, viewWebinar } from './webinar-record.ts';
import { registeredOf } from './webinar-registrants-data.ts';
import { cancelWebinarRow } from './webinars-data.ts';
import { webinarBody, webinarEventData, type WebinarView } from './wire.ts';

/** Cancels a webinar and tells every registrant; cancelling it again is a no-op 200. */
export async function cancelWebinar(deps: Deps, actor: Actor, id: string): Promise<WebinarView> {
  const row = await deps.db.sql.begin(async (tx) => {
    const current = await requireWebinar(tx, actor.workspaceId, id, { forUpdate: true });
    if (current.status === 'cancelled') return current;
    const cancelled = await cancelWebinarRow(tx, actor.workspaceId, id, deps.clock.now());
    // The row is locked and scheduled: nobody else could cancel it meanwhile.
    if (!cancelled) throw new Error(`Webinar ${id} was not scheduled under its own row lock.`);
    await planCancellation(deps, tx, cancelled, await registeredOf(tx, actor.workspaceId, id));
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'webinar.cancelled', webinarEventData(cancelled));
    return cancelled;
  });
  return viewWebinar(deps, row);
}

export async function handle(input: CancelWebinarInput, ctx: HandlerContext): Promise<CancelWebinarOutput> {
  return { status: 200, body: webinarBody(await cancelWebinar(ctx.deps, actorFrom(ctx), input.path.webinar_id)) };
}
