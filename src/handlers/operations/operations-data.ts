// The operations table: long work a request started, followed through get_operation. Tenant rows:
// every function takes the workspace id right after the queryable, except listStaleOperations (the
// recurring sweep, across workspaces) whose results name their workspace.
import type { Ids } from '../../deps.ts';
import type { PageBound } from '../../db/paging.ts';
import { query, type Queryable } from '../../db/queryable.ts';
import type { Actor } from '../actor.ts';

export type OperationStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export const finishedStatuses: readonly OperationStatus[] = ['succeeded', 'failed', 'cancelled'];

/**
 * An RFC 9457 problem as an operation stores it (no request id: it outlives the request). A type, not
 * an interface, so that it is a JSON value as `sql.json` takes it.
 */
export type OperationProblem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  instance?: string;
};

export interface OperationRow {
  id: string;
  workspace_id: string;
  type: string;
  status: OperationStatus;
  progress_done: number;
  progress_total: number | null;
  resource_type: string | null;
  resource_id: string | null;
  /** The problem a failed operation ended with. */
  error: OperationProblem | null;
  job_queue: string | null;
  job_id: string | null;
  /** The Actor the operation acts for, stored as JSON, so its job runs with the same rights. */
  actor: Actor;
  cancel_requested_at: Date | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

const columns = (q: Queryable) => query(q)`
  id, workspace_id, type, status, progress_done, progress_total, resource_type, resource_id, error,
  job_queue, job_id, actor, cancel_requested_at, created_at, updated_at, finished_at`;

export interface NewOperation {
  type: string;
  resource?: { type: string; id: string };
  progressTotal?: number;
  actor: Actor;
  now: Date;
}

// A plain copy: an object type (unlike the Actor interface) is a JSON value to sql.json.
const storedActor = (actor: Actor) => ({ ...actor });

export async function insertOperation(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  fields: NewOperation,
): Promise<OperationRow> {
  const sql = query(q);
  const [row] = await sql<OperationRow[]>`
    insert into operations (id, workspace_id, type, status, progress_total, resource_type, resource_id, actor, created_at, updated_at)
    values (${ids.make('op')}, ${workspaceId}, ${fields.type}, 'queued', ${fields.progressTotal ?? null},
            ${fields.resource?.type ?? null}, ${fields.resource?.id ?? null}, ${sql.json(storedActor(fields.actor))}, ${fields.now}, ${fields.now})
    returning ${columns(q)}`;
  return row;
}

export async function setOperationJob(
  q: Queryable,
  workspaceId: string,
  id: string,
  job: { queue: string; id: string },
): Promise<void> {
  await query(
    q,
  )`update operations set job_queue = ${job.queue}, job_id = ${job.id} where id = ${id} and workspace_id = ${workspaceId}`;
}

export async function findOperation(q: Queryable, workspaceId: string, id: string): Promise<OperationRow | undefined> {
  const [row] = await query(q)<
    OperationRow[]
  >`select ${columns(q)} from operations where id = ${id} and workspace_id = ${workspaceId}`;
  return row;
}

export interface OperationFilter {
  statuses: OperationStatus[];
  types: string[];
  before?: PageBound;
  limit: number;
}

/** A page of the workspace's operations, newest first. */
export function findOperations(q: Queryable, workspaceId: string, filter: OperationFilter): Promise<OperationRow[]> {
  const sql = query(q);
  const { statuses, types, before } = filter;
  return sql<OperationRow[]>`
    select ${columns(q)} from operations
    where workspace_id = ${workspaceId}
      ${statuses.length ? sql`and status = any(${sql.array(statuses)}::text[])` : sql``}
      ${types.length ? sql`and type = any(${sql.array(types)}::text[])` : sql``}
      ${before ? sql`and (created_at, id) < (${before.at}::timestamptz, ${before.id})` : sql``}
    order by created_at desc, id desc
    limit ${filter.limit}`;
}

/** queued -> running; undefined when the operation is not queued (already running after a crash, or finished). */
export async function claimOperation(
  q: Queryable,
  workspaceId: string,
  id: string,
  now: Date,
): Promise<OperationRow | undefined> {
  const [row] = await query(q)<OperationRow[]>`
    update operations set status = 'running', updated_at = ${now}, heartbeat_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId} and status = 'queued' and cancel_requested_at is null
    returning ${columns(q)}`;
  return row;
}

/** Records that the running operation's worker lives (not a change anyone waits for: updated_at stays). */
export async function beatOperation(q: Queryable, workspaceId: string, id: string, now: Date): Promise<void> {
  await query(
    q,
  )`update operations set heartbeat_at = ${now} where id = ${id} and workspace_id = ${workspaceId} and status = 'running'`;
}

/** Progress of a running operation; a finished one is left as it is. */
export async function setOperationProgress(
  q: Queryable,
  workspaceId: string,
  id: string,
  progress: { done: number; total?: number | null },
  now: Date,
): Promise<void> {
  await query(q)`
    update operations set progress_done = ${progress.done},
      progress_total = ${progress.total === undefined ? query(q)`progress_total` : progress.total}, updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId} and status = 'running'`;
}

export interface OperationOutcome {
  status: 'succeeded' | 'failed' | 'cancelled';
  resource?: { type: string; id: string };
  error?: OperationProblem;
  now: Date;
}

/** Ends an unfinished operation; undefined when it had already finished (the first outcome stands). */
export async function finishOperation(
  q: Queryable,
  workspaceId: string,
  id: string,
  outcome: OperationOutcome,
): Promise<OperationRow | undefined> {
  const sql = query(q);
  const [row] = await sql<OperationRow[]>`
    update operations set status = ${outcome.status}, updated_at = ${outcome.now}, finished_at = ${outcome.now},
      error = ${outcome.error ? sql.json(outcome.error) : null},
      resource_type = coalesce(${outcome.resource?.type ?? null}, resource_type),
      resource_id = coalesce(${outcome.resource?.id ?? null}, resource_id),
      progress_done = case when ${outcome.status} = 'succeeded' then coalesce(progress_total, greatest(progress_done, 1)) else progress_done end,
      progress_total = case when ${outcome.status} = 'succeeded' then coalesce(progress_total, greatest(progress_done, 1)) else progress_total end
    where id = ${id} and workspace_id = ${workspaceId} and status in ('queued', 'running')
    returning ${columns(q)}`;
  return row;
}

/**
 * Asks an unfinished operation to stop: a queued one is cancelled at once (its job will find it
 * cancelled and do nothing), a running one is marked, and its job stops at its next check.
 */
export async function requestCancel(
  q: Queryable,
  workspaceId: string,
  id: string,
  now: Date,
): Promise<OperationRow | undefined> {
  const [row] = await query(q)<OperationRow[]>`
    update operations set
      cancel_requested_at = coalesce(cancel_requested_at, ${now}), updated_at = ${now},
      status = case when status = 'queued' then 'cancelled' else status end,
      finished_at = case when status = 'queued' then ${now}::timestamptz else finished_at end
    where id = ${id} and workspace_id = ${workspaceId} and status in ('queued', 'running')
    returning ${columns(q)}`;
  return row;
}

/** Unfinished operations untouched since `before`, oldest first, for the sweep that fails those whose job died. */
/** Running operations whose heartbeat stopped before `before` (across workspaces, for the sweep). */
export function listSilentOperations(q: Queryable, before: Date, limit: number): Promise<OperationRow[]> {
  return query(q)<OperationRow[]>`
    select ${columns(q)} from operations
    where status = 'running' and heartbeat_at < ${before}
    order by heartbeat_at limit ${limit}`;
}

export function listStaleOperations(q: Queryable, before: Date, limit: number): Promise<OperationRow[]> {
  return query(q)<OperationRow[]>`
    select ${columns(q)} from operations
    where status in ('queued', 'running') and updated_at < ${before}
    order by updated_at limit ${limit}`;
}
