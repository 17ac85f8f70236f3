// Long work as an operation: `startOperation` records the operation and enqueues its job in the
// caller's transaction (so a request that fails leaves neither behind), and `defineOperationJob`
// wraps the work so the operation follows it: queued -> running -> succeeded | failed | cancelled,
// with progress, cooperative cancellation, and every change waking the get_operation calls waiting
// on it. A job that throws an ApiError fails its operation with that problem at once; any other
// error is retried by the queue, and fails the operation when the retries run out.
import type { TransactionSql } from 'postgres';
import { z } from 'zod';
import {
  beatOperation,
  claimOperation,
  findOperation,
  finishOperation,
  insertOperation,
  setOperationJob,
  setOperationProgress,
  type OperationOutcome,
  type OperationProblem,
  type OperationRow,
} from './operations-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { ApiError, toProblem } from '../../errors.ts';
import { defineJob, type JobContext, type JobKind, type JobKindDefinition } from '../../jobs/job-kind.ts';
import type { Actor } from '../actor.ts';

/** Thrown by `work.throwIfCancelled()`; the wrapper turns it into the `cancelled` status. */
export class OperationCancelled extends Error {
  constructor() {
    super('the operation was cancelled');
    this.name = 'OperationCancelled';
  }
}

/**
 * Thrown by work that finds another run of the same operation ahead of it (a run presumed dead and
 * retried while it still lived): this run stops and leaves the operation to the other one.
 */
export class RunSuperseded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunSuperseded';
  }
}

export interface OperationWork {
  operationId: string;
  workspaceId: string;
  /** Who started the operation, with the rights they had then: the work runs as them. */
  actor: Actor;
  job: JobContext;
  /** Records progress (`total` once known); waiting get_operation calls see it on their next answer. */
  progress(done: number, total?: number | null): Promise<void>;
  /** Throws OperationCancelled when cancel_operation asked this operation to stop. Call between steps. */
  throwIfCancelled(): Promise<void>;
}

export interface OperationResult {
  /** The resource the work produced or changed, when the operation did not name it at the start. */
  resource?: { type: string; id: string };
}

export interface OperationPayload<I> {
  workspace_id: string;
  operation_id: string;
  input: I;
}

export type OperationJobKind<I> = JobKind<OperationPayload<I>, Deps> & { operationType: string };

export interface OperationJobDefinition<I>
  extends Omit<JobKindDefinition<OperationPayload<I>, Deps>, 'payload' | 'handler'> {
  /** The operation's `type` as the API shows it, such as `lead_import`. */
  type: string;
  input: z.ZodType<I>;
  run(input: I, work: OperationWork, deps: Deps): Promise<OperationResult | void>;
}

/** A job kind whose runs an operation follows; define it once, as a module constant. */
export function defineOperationJob<I>(definition: OperationJobDefinition<I>): OperationJobKind<I> {
  const { type, input, run, ...policy } = definition;
  const kind: OperationJobKind<I> = Object.assign(
    defineJob<OperationPayload<I>, Deps>({
      ...policy,
      payload: z.object({ workspace_id: z.string(), operation_id: z.string(), input }),
      handler: (payload, job, deps) => runOperationJob(deps, kind, definition, payload, job),
    }),
    { operationType: type },
  );
  return kind;
}

export interface StartOperation<I> {
  kind: OperationJobKind<I>;
  input: I;
  resource?: { type: string; id: string };
  progressTotal?: number;
  startAfter?: Date;
}

/**
 * Records a queued operation and enqueues its job with `tx`: both exist only if the caller's
 * transaction commits. Call `afterCommit` once it has, to start the job without waiting for a poll.
 */
export async function startOperation<I>(
  deps: Deps,
  tx: TransactionSql,
  actor: Actor,
  start: StartOperation<I>,
): Promise<{ row: OperationRow; afterCommit(): void }> {
  const row = await insertOperation(tx, actor.workspaceId, deps.ids, {
    type: start.kind.operationType,
    resource: start.resource,
    progressTotal: start.progressTotal,
    actor: { ...actor },
    now: deps.clock.now(),
  });
  const payload: OperationPayload<I> = { workspace_id: actor.workspaceId, operation_id: row.id, input: start.input };
  const jobId = await deps.jobs.enqueue(start.kind, payload, {
    tx,
    ...(start.startAfter && { startAfter: start.startAfter }),
  });
  if (!jobId) throw new Error(`the job for operation ${row.id} was not enqueued`);
  await setOperationJob(tx, actor.workspaceId, row.id, { queue: start.kind.name, id: jobId });
  return { row: { ...row, job_queue: start.kind.name, job_id: jobId }, afterCommit: () => deps.jobs.wake(start.kind) };
}

/** Ends the operation (if still unfinished) and wakes its waiters. */
export async function endOperation(
  deps: Deps,
  q: Queryable,
  workspaceId: string,
  id: string,
  outcome: Omit<OperationOutcome, 'now'>,
): Promise<OperationRow | undefined> {
  const row = await finishOperation(q, workspaceId, id, { ...outcome, now: deps.clock.now() });
  if (row) deps.resourceWatch.changed(id);
  return row;
}

/** The problem an operation ends with: the ApiError's own, or a generic internal one (never a stack or message of ours). */
export function operationProblem(error: unknown, operationId: string): OperationProblem {
  const apiError =
    error instanceof ApiError
      ? error
      : new ApiError('internal', 'The work failed after its retries; nothing further will be attempted.');
  const { request_id: _ignored, ...problem } = toProblem(apiError, operationId);
  return { ...problem, instance: `/api/v1/operations/${operationId}` };
}

async function runOperationJob<I>(
  deps: Deps,
  kind: OperationJobKind<I>,
  definition: OperationJobDefinition<I>,
  payload: OperationPayload<I>,
  job: JobContext,
): Promise<void> {
  const { workspace_id: workspaceId, operation_id: id } = payload;
  let row = await claimOperation(deps.db.sql, workspaceId, id, deps.clock.now());
  if (row) deps.resourceWatch.changed(id);
  else {
    row = await findOperation(deps.db.sql, workspaceId, id);
    // Gone, finished or cancelled while queued: nothing to do. A running one is this job's retry.
    if (!row || row.status !== 'running') return;
    if (row.cancel_requested_at) {
      await endOperation(deps, deps.db.sql, workspaceId, id, { status: 'cancelled' });
      return;
    }
  }
  const work: OperationWork = {
    operationId: id,
    workspaceId,
    actor: row.actor,
    job,
    async progress(done, total) {
      await setOperationProgress(deps.db.sql, workspaceId, id, { done, total }, deps.clock.now());
      deps.resourceWatch.changed(id);
    },
    async throwIfCancelled() {
      const current = await findOperation(deps.db.sql, workspaceId, id);
      if (!current || current.cancel_requested_at || current.status !== 'running') throw new OperationCancelled();
    },
  };
  // The heartbeat says this worker lives; the sweep retries a running operation whose beat stopped.
  const beat = () =>
    beatOperation(deps.db.sql, workspaceId, id, deps.clock.now()).catch((err: unknown) =>
      deps.log.warn({ err, operation_id: id }, 'operation heartbeat failed'),
    );
  await beat();
  const heartbeat = setInterval(() => void beat(), deps.config.operationHeartbeatMs);
  heartbeat.unref();
  try {
    const result = await definition.run(payload.input, work, deps);
    await endOperation(deps, deps.db.sql, workspaceId, id, { status: 'succeeded', resource: result?.resource });
  } catch (error) {
    if (error instanceof OperationCancelled) {
      await endOperation(deps, deps.db.sql, workspaceId, id, { status: 'cancelled' });
      return;
    }
    if (error instanceof RunSuperseded) {
      deps.log.warn(
        { operation_id: id, kind: kind.name, reason: error.message },
        'run stopped: another run of its operation is ahead',
      );
      return;
    }
    const final = error instanceof ApiError || job.attempt > kind.retry.limit;
    if (!final) throw error;
    if (!(error instanceof ApiError))
      deps.log.error({ err: error, operation_id: id, kind: kind.name }, 'operation failed after its retries');
    await endOperation(deps, deps.db.sql, workspaceId, id, { status: 'failed', error: operationProblem(error, id) });
  } finally {
    clearInterval(heartbeat);
  }
}
