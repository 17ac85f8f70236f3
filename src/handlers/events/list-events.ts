import type { ListEventsInput, ListEventsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { requireAdmin, type Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { byCreation, listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { findEvents } from './events-data.ts';
import { eventBody } from './wire.ts';

export type ListEventsRequest = ListEventsInput['query'];

// Checked here rather than by a contract pattern, which would lengthen the tool's schema for every agent.
const TYPE_FILTER = /^[a-z_]+\.([a-z_]+|\*)$/;

function checkTypes(types: readonly string[]): void {
  const wrong = types.find((t) => !TYPE_FILTER.test(t));
  if (wrong !== undefined) {
    throw new ApiError(
      'validation_failed',
      `The type filter "${wrong}" is neither \`resource.action\` nor \`resource.*\`.`,
      {
        errors: [
          {
            field: 'query.type',
            code: 'invalid_type_filter',
            message: 'comma-separated resource.action or resource.* types',
          },
        ],
      },
    );
  }
}

/**
 * Admin-only, as the keys and members the events describe are: a member must not read, say, who
 * minted which key. Oldest first, strictly after the cursor, so a reader catches up by following cursors.
 * The admin check comes before the cursor's, so a member learns nothing from how their cursor is judged.
 */
export function listEvents(deps: Deps, actor: Actor, request: ListEventsRequest) {
  requireAdmin(actor);
  const requested = request.type ?? [];
  checkTypes(requested);
  const filter = {
    types: requested.filter((t) => !t.endsWith('.*')),
    resources: requested.filter((t) => t.endsWith('.*')).map((t) => t.slice(0, -2)),
    createdAfter: request.created_after === undefined ? undefined : new Date(request.created_after),
    createdBefore: request.created_before === undefined ? undefined : new Date(request.created_before),
  };
  return listPage(request, {
    scope: cursorScope(deps.auth, 'list_events', actor.workspaceId),
    fetch: ({ limit, after }) => findEvents(deps.db.sql, actor.workspaceId, { ...filter, after, limit }),
    toItem: eventBody,
    position: byCreation,
  });
}

export async function handle(input: ListEventsInput, ctx: HandlerContext): Promise<ListEventsOutput> {
  return { status: 200, body: await listEvents(ctx.deps, actorFrom(ctx), input.query) };
}
