import type { GetEmailSequenceInput, GetEmailSequenceOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { waitForChange, type Watched } from '../operations/wait-for-change.ts';
import { requireSequence, viewSequence } from './sequence-record.ts';
import type { SequenceRow, SequenceStatus } from './sequences-data.ts';
import { sequenceBody, type SequenceView } from './wire.ts';

/** Statuses that move without the caller: a person's decision, sending that ends or pauses, a re-approval. */
const MOVING = new Set<SequenceStatus>(['pending_approval', 'active', 'paused']);
const watchedSequence: Watched<SequenceRow> = {
  fingerprint: (row) => `${row.status}:${row.revision}`,
  settled: (row) => !MOVING.has(row.status),
};

/**
 * With `waitSeconds`, answers as soon as the status changes (a person approved or rejected it, sending ended);
 * a draft, approved, completed or archived sequence at once: only the caller moves it on.
 */
export async function getEmailSequence(
  deps: Deps,
  actor: Actor,
  request: { sequenceId: string; waitSeconds: number; signal?: AbortSignal },
): Promise<SequenceView> {
  const read = () => requireSequence(deps, deps.db.sql, actor.workspaceId, request.sequenceId);
  const row = await waitForChange(
    deps,
    actor,
    { id: request.sequenceId, waitSeconds: request.waitSeconds, signal: request.signal },
    read,
    watchedSequence,
  );
  return viewSequence(deps, actor.workspaceId, row);
}

export async function handle(input: GetEmailSequenceInput, ctx: HandlerContext): Promise<GetEmailSequenceOutput> {
  const view = await getEmailSequence(ctx.deps, actorFrom(ctx), {
    sequenceId: input.path.sequence_id,
    waitSeconds: input.query.wait_seconds ?? 0,
    signal: ctx.signal,
  });
  return { status: 200, body: sequenceBody(view), headers: { ETag: `"${view.row.revision}"` } };
}
