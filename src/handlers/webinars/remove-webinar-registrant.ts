import type { RemoveWebinarRegistrantInput, RemoveWebinarRegistrantOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { mailOfRegistrants, skipScheduled } from './webinar-mail-data.ts';
import { requireWebinar } from './webinar-record.ts';
import { findRegistrant, removeRegistrantRow, type RegistrantRow } from './webinar-registrants-data.ts';
import { registrantBody, registrantEventData } from './wire.ts';

/** Removes a registrant (their join link stops working) and skips the mail still due to them. */
export async function removeWebinarRegistrant(
  deps: Deps,
  actor: Actor,
  webinarId: string,
  registrantId: string,
): Promise<RegistrantRow> {
  return deps.db.sql.begin(async (tx) => {
    await requireWebinar(tx, actor.workspaceId, webinarId, { forUpdate: true });
    const current = await findRegistrant(tx, actor.workspaceId, registrantId);
    if (!current || current.webinar_id !== webinarId)
      throw new ApiError('not_found', `No registrant ${registrantId} of webinar ${webinarId} in this workspace.`);
    if (current.status === 'removed') return current;
    const removed = await removeRegistrantRow(tx, actor.workspaceId, registrantId, deps.clock.now());
    // Registrants change only under their webinar's row lock, held here: this one is still registered.
    if (!removed) throw new Error(`Registrant ${registrantId} was not registered under its webinar's row lock.`);
    await skipScheduled(
      tx,
      actor.workspaceId,
      { registrantId, kinds: ['confirmation', 'update', 'reminder_24h', 'reminder_1h'] },
      'registrant_removed',
    );
    await recordEvent(
      deps,
      tx,
      actor.workspaceId,
      eventActor(actor),
      'webinar_registrant.removed',
      registrantEventData(removed),
    );
    return removed;
  });
}

export async function handle(
  input: RemoveWebinarRegistrantInput,
  ctx: HandlerContext,
): Promise<RemoveWebinarRegistrantOutput> {
  const removed = await removeWebinarRegistrant(
    ctx.deps,
    actorFrom(ctx),
    input.path.webinar_id,
    input.path.registrant_id,
  );
  return {
    status: 200,
    body: registrantBody(removed, await mailOfRegistrants(ctx.deps.db.sql, removed.workspace_id, [removed.id])),
  };
}
