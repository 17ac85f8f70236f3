// Operations record their events through here, inside the transaction of the change itself, so a
// change and its event commit or roll back together; so do the webhook deliveries the event causes and
// the resumption of agent runs waiting for that change.
import { insertEvent, type EventActor, type EventRow } from './events-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { resumeRunsWaitingOn } from '../agents/resume.ts';
import { fanOutEvent } from '../webhooks/deliver.ts';

export function eventActor(actor: Actor): EventActor {
  if (actor.kind === 'api_key') return { type: 'api_key', id: actor.keyId ?? null };
  if (actor.kind === 'operator') return { type: 'operator', id: null };
  return { type: 'user', id: actor.userId };
}

/** `tx` must be the transaction that makes the change; `data` is the resource as the API shows it. */
export async function recordEvent(deps: Deps, tx: Queryable, workspaceId: string, actor: EventActor, type: string, data: Record<string, unknown>): Promise<EventRow> {
  const event = await insertEvent(tx, workspaceId, deps.ids, { type, data, actor, now: deps.clock.now() });
  await fanOutEvent(deps, tx, workspaceId, event);
  await resumeRunsWaitingOn(deps, tx, workspaceId, event);
  return event;
}
