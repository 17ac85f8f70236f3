import type { ListSequenceEnrollmentsInput, ListSequenceEnrollmentsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';
import { listEnrollments, type EnrollmentRow, type EnrollmentStatus } from './sequence-enrollments-data.ts';
import { requireSequence } from './sequence-record.ts';
import { enrollmentBody } from './wire.ts';

const statuses: readonly EnrollmentStatus[] = ['active', 'completed', 'stopped', 'removed'];

export async function listSequenceEnrollments(deps: Deps, actor: Actor, request: { sequenceId: string; statuses: EnrollmentStatus[]; after?: { at: string; id: string }; limit: number }): Promise<EnrollmentRow[]> {
  await requireSequence(deps, deps.db.sql, actor.workspaceId, request.sequenceId);
  return listEnrollments(deps.db.sql, actor.workspaceId, request.sequenceId, request);
}

export async function handle(input: ListSequenceEnrollmentsInput, ctx: HandlerContext): Promise<ListSequenceEnrollmentsOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, `list_sequence_enrollments:${input.path.sequence_id}`, actor.workspaceId);
  const rows = await listSequenceEnrollments(ctx.deps, actor, {
    sequenceId: input.path.sequence_id,
    statuses: commaList(input.query.status, 'status', statuses),
    after: decodeCursor(input.query.cursor, scope),
    limit: limit + 1,
  });
  return { status: 200, body: page(rows, limit, enrollmentBody, (r) => ({ at: r.enrolled_at.toISOString(), id: r.id }), scope) };
}
