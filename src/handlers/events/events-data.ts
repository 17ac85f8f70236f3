// The events table: what changed in a workspace, appended in the same transaction as the change.
// Tenant rows: every function takes the workspace id right after the queryable.
import type { Ids } from '../../deps.ts';
import type { PageBound } from '../../db/paging.ts';
import { query, type Queryable } from '../../db/queryable.ts';

/** A type, not an interface, so that it is a JSON value as `sql.json` takes it. */
export type EventActor = {
  type: 'user' | 'api_key' | 'operator' | 'system';
  /** The user or key id; null for the operator and the service itself. */
  id: string | null;
};

export interface EventRow {
  id: string;
  type: string;
  data: Record<string, unknown>;
  actor: EventActor;
  created_at: Date;
}

export interface NewEvent {
  /** `resource.action`, e.g. `api_key.created`. */
  type: string;
  data: Record<string, unknown>;
  actor: EventActor;
  now: Date;
}

export interface EventFilter {
  /** Exact types; with `resources`, an event matches either list. Both empty: every type. */
  types: string[];
  /** The `resource` part of `resource.*` filters. */
  resources: string[];
  createdAfter?: Date;
  createdBefore?: Date;
  /** Strictly after this position (the cursor). */
  after?: PageBound;
  limit: number;
}

const columns = (q: Queryable) => query(q)`id, type, data, actor, created_at`;

export async function insertEvent(q: Queryable, workspaceId: string, ids: Ids, event: NewEvent): Promise<EventRow> {
  const sql = query(q);
  const [row] = await sql<EventRow[]>`
    insert into events (id, workspace_id, type, data, actor, created_at)
    values (${ids.make('evt')}, ${workspaceId}, ${event.type}, ${sql.json(event.data as never)}, ${sql.json(event.actor)}, ${event.now})
    returning ${columns(q)}`;
  return row;
}

/** Several events of one actor at one moment, in one statement, in the order given. */
export async function insertEvents(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  events: { type: string; data: Record<string, unknown> }[],
  actor: EventActor,
  now: Date,
): Promise<EventRow[]> {
  if (events.length === 0) return [];
  const sql = query(q);
  return sql<EventRow[]>`
    insert into events (id, workspace_id, type, data, actor, created_at)
    select e.id, ${workspaceId}, e.type, e.data::jsonb, ${sql.json(actor)}, ${now}
    from unnest(${sql.array(events.map(() => ids.make('evt')))}::text[], ${sql.array(events.map((e) => e.type))}::text[],
                ${sql.array(events.map((e) => JSON.stringify(e.data)))}::text[]) with ordinality as e(id, type, data, n)
    order by e.n
    returning ${columns(q)}`;
}

/** A page of the workspace's events, oldest first, so a reader catches up by following the cursor. */
export function findEvents(q: Queryable, workspaceId: string, filter: EventFilter): Promise<EventRow[]> {
  const sql = query(q);
  const { types, resources, createdAfter, createdBefore, after } = filter;
  const typed = types.length || resources.length;
  return sql<EventRow[]>`
    select ${columns(q)} from events
    where workspace_id = ${workspaceId}
      ${typed ? sql`and (type = any(${sql.array(types)}::text[]) or split_part(type, '.', 1) = any(${sql.array(resources)}::text[]))` : sql``}
      ${createdAfter ? sql`and created_at > ${createdAfter}` : sql``}
      ${createdBefore ? sql`and created_at < ${createdBefore}` : sql``}
      ${after ? sql`and (created_at, id) > (${after.at}::timestamptz, ${after.id})` : sql``}
    order by created_at, id
    limit ${filter.limit}`;
}
