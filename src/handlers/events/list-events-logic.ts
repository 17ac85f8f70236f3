import { listEvents as listEventRows, type EventRow } from './events-data.ts';
import type { PageBound } from '../../db/paging.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { requireAdmin, type Actor } from '../actor.ts';

export interface ListEventsRequest {
  /** Exact types (`member.added`) or `resource.*`; empty for every type. */
  types: string[];
  createdAfter?: Date;
  createdBefore?: Date;
  after?: PageBound;
  limit: number;
}

// Checked here rather than by a contract pattern, which would lengthen the tool's schema for every agent.
const TYPE_FILTER = /^[a-z_]+\.([a-z_]+|\*)$/;

/**
 * Admin-only, as the keys and members the events describe are: a member must not read, say, who
 * minted which key. Oldest first, strictly after `after`, so a reader catches up by following cursors.
 */
export async function listEvents(deps: Deps, actor: Actor, request: ListEventsRequest): Promise<EventRow[]> {
  requireAdmin(actor);
  const wrong = request.types.find((t) => !TYPE_FILTER.test(t));
  if (wrong !== undefined) {
    throw new ApiError('validation_failed', `The type filter "${wrong}" is neither \`resource.action\` nor \`resource.*\`.`, {
      errors: [{ field: 'query.type', code: 'invalid_type_filter', message: 'comma-separated resource.action or resource.* types' }],
    });
  }
  const types = request.types.filter((t) => !t.endsWith('.*'));
  const resources = request.types.filter((t) => t.endsWith('.*')).map((t) => t.slice(0, -2));
  return listEventRows(deps.db.sql, actor.workspaceId, {
    types,
    resources,
    createdAfter: request.createdAfter,
    createdBefore: request.createdBefore,
    after: request.after,
    limit: request.limit,
  });
}
