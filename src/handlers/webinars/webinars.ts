import type { WebinarStatus } from './webinars-data.ts';
import type {
  CancelWebinarInput,
  CancelWebinarOutput,
  GetWebinarInput,
  GetWebinarOutput,
  ListWebinarsInput,
  ListWebinarsOutput,
  ScheduleWebinarInput,
  ScheduleWebinarOutput,
  UpdateWebinarInput,
  UpdateWebinarOutput,
} from '../../generated/handlers.ts';
import { cancelWebinar as cancel, getWebinar as get, listWebinars as list, scheduleWebinar as schedule, updateWebinar as update } from './webinars-logic.ts';
import { webinarBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';

const statuses: readonly WebinarStatus[] = ['scheduled', 'cancelled'];

export async function scheduleWebinar(input: ScheduleWebinarInput, ctx: HandlerContext): Promise<ScheduleWebinarOutput> {
  return { status: 201, body: webinarBody(await schedule(ctx.deps, actorFrom(ctx), input.body)) };
}

export async function getWebinar(input: GetWebinarInput, ctx: HandlerContext): Promise<GetWebinarOutput> {
  return { status: 200, body: webinarBody(await get(ctx.deps, actorFrom(ctx), input.path.webinar_id)) };
}

export async function listWebinars(input: ListWebinarsInput, ctx: HandlerContext): Promise<ListWebinarsOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_webinars', actor.workspaceId);
  const views = await list(ctx.deps, actor, { statuses: commaList(input.query.status, 'status', statuses), before: decodeCursor(input.query.cursor, scope), limit: limit + 1 });
  return { status: 200, body: page(views, limit, webinarBody, (v) => ({ at: v.row.created_at.toISOString(), id: v.row.id }), scope) };
}

export async function updateWebinar(input: UpdateWebinarInput, ctx: HandlerContext): Promise<UpdateWebinarOutput> {
  return { status: 200, body: webinarBody(await update(ctx.deps, actorFrom(ctx), input.path.webinar_id, input.body)) };
}

export async function cancelWebinar(input: CancelWebinarInput, ctx: HandlerContext): Promise<CancelWebinarOutput> {
  return { status: 200, body: webinarBody(await cancel(ctx.deps, actorFrom(ctx), input.path.webinar_id)) };
}
