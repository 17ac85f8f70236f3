import type { CreateEmailSequenceInput, CreateEmailSequenceOutput } from '../../generated/handlers.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { sequenceFields, type SequenceInput } from './sequence-input.ts';
import { viewSequence } from './sequence-record.ts';
import { insertSequence, type SequenceFields, type SequenceRow } from './sequences-data.ts';
import { sequenceBody, sequenceEventData, type SequenceView } from './wire.ts';

export async function createEmailSequence(deps: Deps, actor: Actor, input: SequenceInput): Promise<SequenceView> {
  const fields = await sequenceFields(deps.db.sql, actor.workspaceId, input);
  const row = await deps.db.sql.begin((tx) => insertSequenceRecorded(deps, tx, actor, fields));
  return viewSequence(deps, actor.workspaceId, row);
}

/** Inserts a checked sequence and its event with `tx`: an agent run commits its own checkpoint with them. */
export async function insertSequenceRecorded(
  deps: Deps,
  tx: Queryable,
  actor: Actor,
  fields: SequenceFields,
): Promise<SequenceRow> {
  const created = await insertSequence(tx, actor.workspaceId, deps.ids, {
    ...fields,
    createdBy: actor.userId,
    now: deps.clock.now(),
  });
  await recordEvent(
    deps,
    tx,
    actor.workspaceId,
    eventActor(actor),
    'email_sequence.created',
    sequenceEventData(created),
  );
  return created;
}

export async function handle(input: CreateEmailSequenceInput, ctx: HandlerContext): Promise<CreateEmailSequenceOutput> {
  return { status: 201, body: sequenceBody(await createEmailSequence(ctx.deps, actorFrom(ctx), input.body)) };
}
