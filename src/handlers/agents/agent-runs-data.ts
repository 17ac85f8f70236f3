// The agent_runs table: runs of store agents, their step checkpoints and what they wait for. Tenant rows:
// every function takes the workspace id right after the queryable, except listRunsToRecheck (the
// recurring sweep, across workspaces) whose results name their workspace.
import type postgres from 'postgres';
import type { Ids } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import type { OperationProblem } from '../operations/operations-data.ts';
import type { PageBound } from '../../db/paging.ts';
import { query, type Queryable } from '../../db/queryable.ts';

export type RunStatus = 'queued' | 'running' | 'requires_action' | 'succeeded' | 'failed' | 'cancelled';
export const finishedRunStatuses: readonly RunStatus[] = ['succeeded', 'failed', 'cancelled'];
export type StepStatus = 'pending' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'skipped' | 'cancelled';

export interface RunStep {
  name: string;
  status: StepStatus;
  started_at: string | null;
  finished_at: string | null;
}

export interface ResourceRef {
  type: string;
  id: string;
}

/** What a run produced: the resources it made or changed, and what an agent returns besides (e.g. ad-copy-writer's creatives). */
export interface RunOutput {
  resources: ResourceRef[];
  [key: string]: unknown;
}

export interface RequiredAction {
  type: 'connector_authorization' | 'sequence_approval';
  url: string;
  message: string;
  resource: ResourceRef;
  expires_at: string;
}

export interface AgentRunRow {
  id: string;
  workspace_id: string;
  agent_id: string;
  agent_slug: string;
  agent_version: string;
  status: RunStatus;
  input: Record<string, unknown>;
  /** Who started the run, as they were then: the run acts with their rights. */
  actor: Actor;
  state: Record<string, unknown>;
  steps: RunStep[];
  step_index: number;
  required_action: RequiredAction | null;
  waiting_for: string | null;
  wait_deadline: Date | null;
  output: RunOutput | null;
  notes: string[];
  error: OperationProblem | null;
  runner_job: string | null;
  cancel_requested_at: Date | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

const columns = (q: Queryable) => query(q)`
  id, workspace_id, agent_id, agent_slug, agent_version, status, input, actor, state, steps, step_index,
  required_action, waiting_for, wait_deadline, output, notes, error, runner_job, cancel_requested_at,
  created_at, updated_at, finished_at`;

const json = (q: Queryable, value: unknown) => query(q).json(value as postgres.JSONValue);

export interface NewRun {
  agent: { id: string; slug: string; version: string };
  input: Record<string, unknown>;
  actor: Actor;
  steps: string[];
  now: Date;
}

export async function insertRun(q: Queryable, workspaceId: string, ids: Ids, fields: NewRun): Promise<AgentRunRow> {
  const sql = query(q);
  const steps: RunStep[] = fields.steps.map((name) => ({
    name,
    status: 'pending',
    started_at: null,
    finished_at: null,
  }));
  const [row] = await sql<AgentRunRow[]>`
    insert into agent_runs (id, workspace_id, agent_id, agent_slug, agent_version, status, input, actor, steps, created_at, updated_at)
    values (${ids.make('run')}, ${workspaceId}, ${fields.agent.id}, ${fields.agent.slug}, ${fields.agent.version}, 'queued',
            ${json(q, fields.input)}, ${json(q, fields.actor)}, ${json(q, steps)}, ${fields.now}, ${fields.now})
    returning ${columns(q)}`;
  return row;
}

export async function findRun(
  q: Queryable,
  workspaceId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<AgentRunRow | undefined> {
  const sql = query(q);
  const [row] = await sql<AgentRunRow[]>`
    select ${columns(q)} from agent_runs where workspace_id = ${workspaceId} and id = ${id}
    ${options.forUpdate ? sql`for update` : sql``}`;
  return row;
}

export function listRuns(
  q: Queryable,
  workspaceId: string,
  page: { statuses: RunStatus[]; agentId?: string; before?: PageBound; limit: number },
): Promise<AgentRunRow[]> {
  const sql = query(q);
  const { statuses, agentId, before } = page;
  return sql<AgentRunRow[]>`
    select ${columns(q)} from agent_runs
    where workspace_id = ${workspaceId}
      ${statuses.length ? sql`and status = any(${sql.array(statuses)}::text[])` : sql``}
      ${agentId ? sql`and agent_id = ${agentId}` : sql``}
      ${before ? sql`and (created_at, id) < (${before.at}::timestamptz, ${before.id})` : sql``}
    order by created_at desc, id desc
    limit ${page.limit}`;
}

/** The columns a run's engine changes; each given field is written, the others stay. */
export interface RunChange {
  status?: RunStatus;
  state?: Record<string, unknown>;
  steps?: RunStep[];
  stepIndex?: number;
  requiredAction?: RequiredAction | null;
  waitingFor?: string | null;
  waitDeadline?: Date | null;
  output?: RunOutput | null;
  notes?: string[];
  error?: OperationProblem | null;
  runnerJob?: string | null;
  cancelRequestedAt?: Date | null;
  finishedAt?: Date | null;
  now: Date;
}

export async function updateRun(
  q: Queryable,
  workspaceId: string,
  id: string,
  change: RunChange,
): Promise<AgentRunRow> {
  const sql = query(q);
  const set = (present: boolean, fragment: postgres.PendingQuery<postgres.Row[]>) =>
    present ? sql`, ${fragment}` : sql``;
  const [row] = await sql<AgentRunRow[]>`
    update agent_runs set updated_at = ${change.now}
      ${set(change.status !== undefined, sql`status = ${change.status ?? null}`)}
      ${set(change.state !== undefined, sql`state = ${json(q, change.state)}`)}
      ${set(change.steps !== undefined, sql`steps = ${json(q, change.steps)}`)}
      ${set(change.stepIndex !== undefined, sql`step_index = ${change.stepIndex ?? 0}`)}
      ${set(change.requiredAction !== undefined, sql`required_action = ${change.requiredAction ? json(q, change.requiredAction) : null}`)}
      ${set(change.waitingFor !== undefined, sql`waiting_for = ${change.waitingFor ?? null}`)}
      ${set(change.waitDeadline !== undefined, sql`wait_deadline = ${change.waitDeadline ?? null}`)}
      ${set(change.output !== undefined, sql`output = ${change.output ? json(q, change.output) : null}`)}
      ${set(change.notes !== undefined, sql`notes = ${json(q, change.notes)}`)}
      ${set(change.error !== undefined, sql`error = ${change.error ? json(q, change.error) : null}`)}
      ${set(change.runnerJob !== undefined, sql`runner_job = ${change.runnerJob ?? null}`)}
      ${set(change.cancelRequestedAt !== undefined, sql`cancel_requested_at = ${change.cancelRequestedAt ?? null}`)}
      ${set(change.finishedAt !== undefined, sql`finished_at = ${change.finishedAt ?? null}`)}
    where workspace_id = ${workspaceId} and id = ${id}
    returning ${columns(q)}`;
  return row;
}

/** Runs waiting on `resourceId` (a connector, a sequence): its events resume them. */
export function runsWaitingOn(q: Queryable, workspaceId: string, resourceId: string): Promise<{ id: string }[]> {
  return query(q)<{ id: string }[]>`
    select id from agent_runs where workspace_id = ${workspaceId} and status = 'requires_action' and waiting_for = ${resourceId}`;
}

/**
 * Unfinished runs the recurring sweep looks at again: waiting ones (a lost event, a deadline, a consent
 * link to renew) and queued or running ones untouched for `staleBefore` (their job was lost).
 */
export function listRunsToRecheck(
  q: Queryable,
  staleBefore: Date,
  limit: number,
): Promise<{ id: string; workspace_id: string }[]> {
  return query(q)<{ id: string; workspace_id: string }[]>`
    select id, workspace_id from agent_runs
    where status = 'requires_action' or (status in ('queued', 'running') and updated_at < ${staleBefore})
    order by updated_at
    limit ${limit}`;
}

/** Merges `patch` into the run's state: a step records its effect's result in the effect's own transaction. */
export async function mergeRunState(
  q: Queryable,
  workspaceId: string,
  id: string,
  patch: Record<string, unknown>,
): Promise<void> {
  await query(
    q,
  )`update agent_runs set state = state || ${json(q, patch)} where workspace_id = ${workspaceId} and id = ${id}`;
}
