// Operations record their events through here, inside the transaction of the change itself, so a
// change and its event commit or roll back together; so does whatever the event's subscribers do with it
// (webhook deliveries, the resumption of agent runs waiting for that change), registered in
// `deps.eventSubscribers` at the composition root (src/services.ts).
import { insertEvent, insertEvents, type EventActor, type EventRow } from './events-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';

export function eventActor(actor: Actor): EventActor {
  if (actor.kind === 'api_key') return { type: 'api_key', id: actor.keyId ?? null };
  if (actor.kind === 'operator') return { type: 'operator', id: null };
  return { type: 'user', id: actor.userId };
}

/** `tx` must be the transaction that makes the change; `data` is the resource as the API shows it. */
export async function recordEvent(
  deps: Deps,
  tx: Queryable,
  workspaceId: string,
  actor: EventActor,
  type: string,
  data: Record<string, unknown>,
): Promise<EventRow> {
  const event = await insertEvent(tx, workspaceId, deps.ids, { type, data, actor, now: deps.clock.now() });
  for (const subscriber of deps.eventSubscribers) await subscriber(deps, tx, workspaceId, [event]);
  return event;
}

/** Several events of one change in one insert (a batch of sends), handed to each subscriber at once, in order. */
export async function recordEvents(
  deps: Deps,
  tx: Queryable,
  workspaceId: string,
  actor: EventActor,
  events: { type: string; data: Record<string, unknown> }[],
): Promise<EventRow[]> {
  const rows = await insertEvents(tx, workspaceId, deps.ids, events, actor, deps.clock.now());
  if (rows.length) for (const subscriber of deps.eventSubscribers) await subscriber(deps, tx, workspaceId, rows);
  return rows;
}
