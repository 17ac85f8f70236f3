import type { GetWebinarInput, GetWebinarOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { requireWebinar, viewWebinar } from './webinar-record.ts';
import { webinarBody, type WebinarView } from './wire.ts';

export async function getWebinar(deps: Deps, actor: Actor, id: string): Promise<WebinarView> {
  return viewWebinar(deps, await requireWebinar(deps.db.sql, actor.workspaceId, id));
}

export async function handle(input: GetWebinarInput, ctx: HandlerContext): Promise<GetWebinarOutput> {
  return { status: 200, body: webinarBody(await getWebinar(ctx.deps, actorFrom(ctx), input.path.webinar_id)) };
}
