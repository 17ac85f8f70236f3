// One sequence's figures, in total and by step, variant, mailbox or day (see analytics-data.ts for what
// counts), and the state of its A/B tests.
import type { GetSequenceAnalyticsInput, GetSequenceAnalyticsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { requireSequence } from '../sequences/sequence-record.ts';
import { outreachFigures, variantTests } from './analytics-data.ts';
import { analyticsRange, type AnalyticsRequest } from './analytics-range.ts';
import { analyticsBody } from './wire.ts';

/** 404 for a sequence of another workspace, as for one that does not exist. */
export async function getSequenceAnalytics(
  deps: Deps,
  actor: Actor,
  request: AnalyticsRequest & { sequenceId: string },
) {
  const range = analyticsRange(request, deps.clock.now());
  await requireSequence(deps, deps.db.sql, actor.workspaceId, request.sequenceId);
  const counts = await outreachFigures(deps.db.sql, actor.workspaceId, range, request.sequenceId);
  const tests = await variantTests(deps.db.sql, actor.workspaceId, request.sequenceId);
  return { ...analyticsBody(range, counts), variant_tests: tests.map((test) => ({ ...test })) };
}

export async function handle(
  input: GetSequenceAnalyticsInput,
  ctx: HandlerContext,
): Promise<GetSequenceAnalyticsOutput> {
  const q = input.query;
  const body = await getSequenceAnalytics(ctx.deps, actorFrom(ctx), {
    sequenceId: input.path.sequence_id,
    groupBy: q.group_by,
    from: q.from,
    to: q.to,
    timezone: q.timezone,
    leadStages: q.lead_stage,
  });
  return { status: 200, body };
}
