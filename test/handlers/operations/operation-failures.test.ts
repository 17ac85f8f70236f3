// How long work ends when it fails, through the real app: failures end the operation with a problem,
// a silent worker's job is retried, and the sweep fails an operation whose job is gone. Runs on PGlite,
// or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/handlers/actor.ts';
import { retrySilentOperations, sweepStaleOperations } from '../../../src/handlers/operations/sweep-stale.ts';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { openGate, quietHeartbeatEnv, readOperation, startSteps, stepsKinds, untilStatus } from './harness.ts';

let t: TestApp;
let owner: SignupResult;
let ownerActor: Actor;

const env = quietHeartbeatEnv;

beforeAll(async () => {
  t = await createTestApp({ jobs: 'work', env, extraJobKinds: stepsKinds });
  owner = await t.signup();
  ownerActor = { kind: 'user', workspaceId: owner.workspaceId, userId: owner.userId, role: 'owner' };
});
afterAll(async () => t?.close());

const getOperation = (id: string, query = '', token = owner.token) => readOperation(t, token, id, query);
const until = (id: string, status: string) => untilStatus(t, owner.token, id, status);

describe('failures', () => {
  it('fails at once with the problem of an ApiError the work throws', async () => {
    const id = await startSteps(t, ownerActor, { steps: 1, fail: 'api_error' });
    openGate(id);
    const failed = await until(id, 'failed');
    expect(failed.error).toMatchObject({
      code: 'unprocessable',
      status: 422,
      detail: 'The test step refused its input.',
    });
  });

  it('retries other errors and fails with an internal problem, saying nothing of ours, when the retries run out', async () => {
    const id = await startSteps(t, ownerActor, { steps: 1, fail: 'crash' });
    const failed = await until(id, 'failed');
    expect(failed.error).toMatchObject({ code: 'internal', status: 500 });
    expect(JSON.stringify(failed.error)).not.toContain('crashed');
  });

  it('leaves a running operation whose worker beats, and hands one whose beat stopped to a retry', async () => {
    const id = await startSteps(t, ownerActor, { steps: 1 });
    await until(id, 'running');
    expect(await retrySilentOperations(t.deps, 60)).toBe(0);
    await t.db.sql`update operations set heartbeat_at = heartbeat_at - interval '10 minutes' where id = ${id}`;
    expect(await retrySilentOperations(t.deps, 60)).toBe(1);
    const [row] = await t.db.sql`select job_queue, job_id from operations where id = ${id}`;
    // Handed to a retry, which a worker of this app may already have fetched on a loaded machine.
    expect(['retry', 'active']).toContain(await t.deps.jobs.jobState(row.job_queue, row.job_id));
    // The run that was only presumed dead finishes; the retry, at the gate or not yet started, then
    // finds the operation done and leaves it as it is.
    openGate(id);
    expect((await until(id, 'succeeded')).progress).toEqual({ done: 1, total: 1 });
    openGate(id);
    const deadline = Date.now() + 20_000;
    while ((await t.deps.jobs.jobState(row.job_queue, row.job_id)) !== 'completed' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await t.deps.jobs.jobState(row.job_queue, row.job_id)).toBe('completed');
    expect(await getOperation(id)).toMatchObject({ status: 'succeeded', error: null });
  });

  it('fails an operation whose job is gone when the sweep runs', async () => {
    const now = t.deps.clock.now();
    const old = new Date(now.getTime() - 3600_000);
    const id = t.deps.ids.make('op');
    await t.db.sql`
      insert into operations (id, workspace_id, type, status, actor, job_queue, job_id, created_at, updated_at)
      values (${id}, ${owner.workspaceId}, 'test_steps', 'running', ${t.db.sql.json({ ...ownerActor })}, 'test.steps',
              '00000000-0000-4000-8000-000000000000', ${old}, ${old})`;
    expect(await sweepStaleOperations(t.deps, 600)).toBeGreaterThanOrEqual(1);
    const op = await getOperation(id);
    expect(op.status).toBe('failed');
    expect(op.error?.code).toBe('internal');
  });
});
