import type { ListEmailSequencesInput, ListEmailSequencesOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';
import { viewSequences } from './sequence-record.ts';
import { listSequences, type SequenceStatus } from './sequences-data.ts';
import { sequenceBody, type SequenceView } from './wire.ts';

const statuses: readonly SequenceStatus[] = ['draft', 'pending_approval', 'approved', 'active', 'paused', 'completed', 'archived'];

export async function listEmailSequences(deps: Deps, actor: Actor, request: { statuses: SequenceStatus[]; before?: { at: string; id: string }; limit: number }): Promise<SequenceView[]> {
  return viewSequences(deps, deps.db.sql, actor.workspaceId, await listSequences(deps.db.sql, actor.workspaceId, request));
}

export async function handle(input: ListEmailSequencesInput, ctx: HandlerContext): Promise<ListEmailSequencesOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_email_sequences', actor.workspaceId);
  const views = await listEmailSequences(ctx.deps, actor, { statuses: commaList(input.query.status, 'status', statuses), before: decodeCursor(input.query.cursor, scope), limit: limit + 1 });
  return { status: 200, body: page(views, limit, sequenceBody, (v) => ({ at: v.row.created_at.toISOString(), id: v.row.id }), scope) };
}
