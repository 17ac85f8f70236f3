// Operations through the real app: a job moves its operation queued -> running -> succeeded with
// progress, a waiting get_operation answers on each change (woken, not polled: the re-read timer is
// set far beyond the wait), cancellation is cooperative, failures end with a problem, and the sweep
// fails an operation whose job is gone. Runs on PGlite, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/handlers/actor.ts';
import { retrySilentOperations, sweepStaleOperations } from '../../../src/handlers/operations/sweep-stale.ts';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { openGate, startSteps, stepsKinds } from './harness.ts';

let t: TestApp;
let owner: SignupResult;
let ownerActor: Actor;

// Heartbeats only when a run starts, so a test decides when an operation falls silent.
const env = { OPERATION_WAIT_RECHECK_MS: '600000', OPERATION_HEARTBEAT_MS: '3600000' };

beforeAll(async () => {
  t = await createTestApp({ jobs: 'work', env, extraJobKinds: stepsKinds });
  owner = await t.signup();
  ownerActor = { kind: 'user', workspaceId: owner.workspaceId, userId: owner.userId, role: 'owner' };
});
afterAll(async () => t?.close());

interface OperationJson {
  id: string;
  type: string;
  status: string;
  progress: { done: number; total: number | null };
  resource: { type: string; id: string } | null;
  error: { code: string; status: number; detail: string } | null;
  cancel_requested_at: string | null;
}

async function getOperation(id: string, query = '', token = owner.token): Promise<OperationJson> {
  const res = await t.request(`/api/v1/operations/${id}${query}`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as OperationJson;
}

/** Waits (long-poll) until the operation reaches `status`. */
async function until(id: string, status: string): Promise<OperationJson> {
  for (;;) {
    const op = await getOperation(id, '?wait_seconds=20');
    if (op.status === status) return op;
    if (['succeeded', 'failed', 'cancelled'].includes(op.status)) throw new Error(`ended ${op.status}, wanted ${status}`);
  }
}

async function addMember(admin: SignupResult): Promise<string> {
  const email = `member.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;
  const invited = await t.request('/api/v1/invitations', { method: 'POST', token: admin.token, json: { email, role: 'member' } });
  const { token } = (await invited.json()) as { token: string };
  const accepted = await t.request('/api/v1/invitations/accept', { method: 'POST', json: { token, name: 'Member', password: 'correct horse battery' } });
  expect(accepted.status).toBe(201);
  return ((await accepted.json()) as { login: { access_token: string } }).login.access_token;
}

describe('following an operation', () => {
  it('answers a waiting get_operation at each change and ends succeeded with full progress and its resource', async () => {
    const id = await startSteps(t, ownerActor, { steps: 2 });
    const running = await until(id, 'running');
    expect(running.progress).toEqual({ done: 0, total: 2 });
    // The wait returns on the progress change the gate lets through, not on its 20 s timeout.
    const waiting = getOperation(id, '?wait_seconds=20');
    openGate(id);
    const moved = await waiting;
    expect(moved.status).toBe('running');
    expect(moved.progress).toEqual({ done: 1, total: 2 });
    openGate(id);
    const done = await until(id, 'succeeded');
    expect(done).toMatchObject({ type: 'test_steps', progress: { done: 2, total: 2 }, resource: { type: 'test_result' }, error: null });
  });

  it('returns the unchanged operation when nothing changes within wait_seconds', async () => {
    const id = await startSteps(t, ownerActor, { steps: 1 });
    await until(id, 'running');
    const again = await getOperation(id, '?wait_seconds=1');
    expect(again).toMatchObject({ status: 'running', progress: { done: 0, total: 1 } });
    openGate(id);
    await until(id, 'succeeded');
  });

  it('answers a finished operation at once, whatever the wait', async () => {
    const id = await startSteps(t, ownerActor, { steps: 0 });
    await until(id, 'succeeded');
    // The watch's sleep is the only way a call could wait; a finished operation must never reach it.
    const waits: string[] = [];
    const wait = t.deps.resourceWatch.wait;
    t.deps.resourceWatch.wait = (watched, ms, signal) => (waits.push(watched), wait(watched, ms, signal));
    try {
      expect((await getOperation(id, '?wait_seconds=50')).status).toBe('succeeded');
    } finally {
      t.deps.resourceWatch.wait = wait;
    }
    expect(waits).toEqual([]);
  });

  it('refuses wait_seconds above 50 and an unknown operation', async () => {
    const res = await t.request('/api/v1/operations/op_01jd8x6y5k2r3t4v5w6x7y8z9a?wait_seconds=51', { token: owner.token });
    expect(res.status).toBe(400);
    const missing = await t.request('/api/v1/operations/op_01jd8x6y5k2r3t4v5w6x7y8z9a', { token: owner.token });
    expect(missing.status).toBe(404);
  });
});

describe('cancel_operation', () => {
  it('stops a running operation at its next check, keeping the progress it made', async () => {
    const id = await startSteps(t, ownerActor, { steps: 3 });
    openGate(id);
    const first = await getOperation(id, '?wait_seconds=20');
    const afterStep = first.progress.done === 1 ? first : await until(id, 'running');
    expect(afterStep.status).toBe('running');
    const res = await t.request(`/api/v1/operations/${id}/cancel`, { method: 'POST', token: owner.token });
    expect(res.status).toBe(200);
    const asked = (await res.json()) as OperationJson;
    expect(asked.status).toBe('running');
    expect(asked.cancel_requested_at).not.toBeNull();
    openGate(id);
    const cancelled = await until(id, 'cancelled');
    expect(cancelled.progress.done).toBeLessThan(3);
    const again = await t.request(`/api/v1/operations/${id}/cancel`, { method: 'POST', token: owner.token });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { code: string }).code).toBe('operation_finished');
  });

  it('lets a member cancel only what they started, and hides operations from other workspaces', async () => {
    const memberToken = await addMember(owner);
    const id = await startSteps(t, ownerActor, { steps: 1 });
    const denied = await t.request(`/api/v1/operations/${id}/cancel`, { method: 'POST', token: memberToken });
    expect(denied.status).toBe(403);
    // Any member may follow it, though.
    expect((await t.request(`/api/v1/operations/${id}`, { token: memberToken })).status).toBe(200);
    const stranger = await t.signup();
    expect((await t.request(`/api/v1/operations/${id}`, { token: stranger.token })).status).toBe(404);
    expect((await t.request(`/api/v1/operations/${id}/cancel`, { method: 'POST', token: stranger.token })).status).toBe(404);
    openGate(id);
    await until(id, 'succeeded');
  });
});

describe('failures', () => {
  it('fails at once with the problem of an ApiError the work throws', async () => {
    const id = await startSteps(t, ownerActor, { steps: 1, fail: 'api_error' });
    openGate(id);
    const failed = await until(id, 'failed');
    expect(failed.error).toMatchObject({ code: 'unprocessable', status: 422, detail: 'The test step refused its input.' });
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
    expect(await t.deps.jobs.jobState(row.job_queue, row.job_id)).toBe('retry');
    // The run that was only presumed dead finishes; the retry, at the gate or not yet started, then
    // finds the operation done and leaves it as it is.
    openGate(id);
    expect((await until(id, 'succeeded')).progress).toEqual({ done: 1, total: 1 });
    openGate(id);
    const deadline = Date.now() + 20_000;
    while ((await t.deps.jobs.jobState(row.job_queue, row.job_id)) !== 'completed' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
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
