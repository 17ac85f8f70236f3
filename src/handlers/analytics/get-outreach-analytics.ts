// The workspace's figures across every sequence, in total and by sequence, mailbox or day, and the stages of
// the leads they reached.
import type { GetOutreachAnalyticsInput, GetOutreachAnalyticsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { outreachFigures } from './analytics-data.ts';
import { analyticsRange, type AnalyticsRequest } from './analytics-range.ts';
import { analyticsBody } from './wire.ts';

export async function getOutreachAnalytics(deps: Deps, actor: Actor, request: AnalyticsRequest) {
  const range = analyticsRange(request, deps.clock.now());
  return analyticsBody(range, await outreachFigures(deps.db.sql, actor.workspaceId, range));
}

export async function handle(
  input: GetOutreachAnalyticsInput,
  ctx: HandlerContext,
): Promise<GetOutreachAnalyticsOutput> {
  const q = input.query;
  const body = await getOutreachAnalytics(ctx.deps, actorFrom(ctx), {
    groupBy: q.group_by,
    from: q.from,
    to: q.to,
    timezone: q.timezone,
    leadStages: q.lead_stage,
  });
  return { status: 200, body };
}
