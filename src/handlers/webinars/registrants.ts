import type { RegistrantStatus } from './webinar-registrants-data.ts';
import type {
  AddWebinarRegistrantsInput,
  AddWebinarRegistrantsOutput,
  ListWebinarRegistrantsInput,
  ListWebinarRegistrantsOutput,
  RemoveWebinarRegistrantInput,
  RemoveWebinarRegistrantOutput,
} from '../../generated/handlers.ts';
import { addRegistrants, listRegistrants, registrantMail, removeRegistrant } from './registrants-logic.ts';
import { registrantBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';

const statuses: readonly RegistrantStatus[] = ['registered', 'removed'];

export async function addWebinarRegistrants(input: AddWebinarRegistrantsInput, ctx: HandlerContext): Promise<AddWebinarRegistrantsOutput> {
  return { status: 200, body: await addRegistrants(ctx.deps, actorFrom(ctx), input.path.webinar_id, input.body.registrants) };
}

export async function listWebinarRegistrants(input: ListWebinarRegistrantsInput, ctx: HandlerContext): Promise<ListWebinarRegistrantsOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, `list_webinar_registrants:${input.path.webinar_id}`, actor.workspaceId);
  const { rows, mail } = await listRegistrants(ctx.deps, actor, input.path.webinar_id, {
    statuses: commaList(input.query.status, 'status', statuses),
    after: decodeCursor(input.query.cursor, scope),
    limit: limit + 1,
  });
  return { status: 200, body: page(rows, limit, (r) => registrantBody(r, mail), (r) => ({ at: r.registered_at.toISOString(), id: r.id }), scope) };
}

export async function removeWebinarRegistrant(input: RemoveWebinarRegistrantInput, ctx: HandlerContext): Promise<RemoveWebinarRegistrantOutput> {
  const removed = await removeRegistrant(ctx.deps, actorFrom(ctx), input.path.webinar_id, input.path.registrant_id);
  return { status: 200, body: registrantBody(removed, await registrantMail(ctx.deps, removed)) };
}
