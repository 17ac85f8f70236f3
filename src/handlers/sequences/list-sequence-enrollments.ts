import type { ListSequenceEnrollmentsInput, ListSequenceEnrollmentsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { listEnrollments } from './sequence-enrollments-data.ts';
import { requireSequence } from './sequence-record.ts';
import { enrollmentBody } from './wire.ts';

export type ListSequenceEnrollmentsRequest = ListSequenceEnrollmentsInput['query'] & { sequenceId: string };

/** A sequence's enrollments, oldest first; 404 for a sequence outside the workspace (after the cursor is checked). */
export function listSequenceEnrollments(deps: Deps, actor: Actor, request: ListSequenceEnrollmentsRequest) {
  const sql = deps.db.sql;
  return listPage(request, {
    scope: cursorScope(deps.auth, `list_sequence_enrollments:${request.sequenceId}`, actor.workspaceId),
    fetch: async ({ limit, after }) => {
      await requireSequence(deps, sql, actor.workspaceId, request.sequenceId);
      return listEnrollments(sql, actor.workspaceId, request.sequenceId, {
        statuses: request.status ?? [],
        after,
        limit,
      });
    },
    toItem: enrollmentBody,
    position: (row) => ({ at: row.enrolled_at.toISOString(), id: row.id }),
  });
}

export async function handle(
  input: ListSequenceEnrollmentsInput,
  ctx: HandlerContext,
): Promise<ListSequenceEnrollmentsOutput> {
  return {
    status: 200,
    body: await listSequenceEnrollments(ctx.deps, actorFrom(ctx), {
      ...input.query,
      sequenceId: input.path.sequence_id,
    }),
  };
}
