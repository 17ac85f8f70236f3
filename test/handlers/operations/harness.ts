// An operation kind for tests of the long-work mechanism: it runs `steps` steps, each waiting for
// the test to open its gate, checking for cancellation and recording progress; a step may be told
// to fail. Gates live in this process, so a test drives the job step by step.
import { expect } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../../src/errors.ts';
import {
  defineOperationJob,
  startOperation,
  type OperationJobKind,
} from '../../../src/handlers/operations/operation-job.ts';
import type { Actor } from '../../../src/handlers/actor.ts';
import type { TestApp } from '../../helpers/app.ts';

export interface StepsInput {
  steps: number;
  /** `api_error`: fail with a 422 problem at the first step; `crash`: throw a plain error at every attempt. */
  fail?: 'api_error' | 'crash';
}

const permits = new Map<string, number>();
// Runs waiting at an operation's gate: one normally, two when a run presumed dead was retried.
const blocked = new Map<string, Array<() => void>>();

/** Lets the operation's waiting runs pass their next step (now, or the next run as soon as it gets there). */
export function openGate(operationId: string): void {
  const waiting = blocked.get(operationId);
  if (waiting) {
    blocked.delete(operationId);
    for (const wake of waiting) wake();
  } else permits.set(operationId, (permits.get(operationId) ?? 0) + 1);
}

function gate(operationId: string): Promise<void> {
  const left = permits.get(operationId) ?? 0;
  if (left > 0) {
    permits.set(operationId, left - 1);
    return Promise.resolve();
  }
  return new Promise<void>((resolve) => blocked.set(operationId, [...(blocked.get(operationId) ?? []), resolve]));
}

/** A `test_steps` operation's job: `steps` gated steps, or the failure asked for. */
export const stepsJob: OperationJobKind<StepsInput> = defineOperationJob<StepsInput>({
  name: 'test.steps',
  type: 'test_steps',
  input: z.object({ steps: z.number().int(), fail: z.enum(['api_error', 'crash']).optional() }),
  retry: { limit: 1, delaySeconds: 0, backoff: false },
  expireInSeconds: 60,
  async run(input, work) {
    if (input.fail === 'crash') throw new Error('the test job crashed');
    await work.progress(0, input.steps);
    for (let step = 1; step <= input.steps; step++) {
      await gate(work.operationId);
      await work.throwIfCancelled();
      if (input.fail === 'api_error') throw new ApiError('unprocessable', 'The test step refused its input.');
      await work.progress(step);
    }
    return { resource: { type: 'test_result', id: `res_${work.operationId.slice(3)}` } };
  },
});

export const stepsKinds = [stepsJob];

/** Starts a `test_steps` operation as `actor`, the way an operation handler would. */
export async function startSteps(t: TestApp, actor: Actor, input: StepsInput): Promise<string> {
  // The app must register the kind (extraJobKinds: stepsKinds): enqueueing an unregistered kind throws.
  const { row, afterCommit } = await t.deps.db.sql.begin((tx) =>
    startOperation(t.deps, tx, actor, { kind: stepsJob, input, progressTotal: input.steps }),
  );
  afterCommit();
  return row.id;
}

// Heartbeats only when a run starts, so a test decides when an operation falls silent.
export const quietHeartbeatEnv = { OPERATION_WAIT_RECHECK_MS: '600000', OPERATION_HEARTBEAT_MS: '3600000' };

export interface OperationJson {
  id: string;
  type: string;
  status: string;
  progress: { done: number; total: number | null };
  resource: { type: string; id: string } | null;
  error: { code: string; status: number; detail: string } | null;
  cancel_requested_at: string | null;
}

/** get_operation through the app, expecting 200. */
export async function readOperation(t: TestApp, token: string, id: string, query = ''): Promise<OperationJson> {
  const res = await t.request(`/api/v1/operations/${id}${query}`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as OperationJson;
}

/** Waits (long-poll) until the operation reaches `status`. */
export async function untilStatus(t: TestApp, token: string, id: string, status: string): Promise<OperationJson> {
  for (;;) {
    const op = await readOperation(t, token, id, '?wait_seconds=20');
    if (op.status === status) return op;
    if (['succeeded', 'failed', 'cancelled'].includes(op.status))
      throw new Error(`ended ${op.status}, wanted ${status}`);
  }
}
