// get_operation through the real app: a job moves its operation queued -> running -> succeeded with
// progress, and a waiting get_operation answers on each change (woken, not polled: the re-read timer is
// set far beyond the wait). Runs on PGlite, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/handlers/actor.ts';
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

describe('get_operation', () => {
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
    expect(done).toMatchObject({
      type: 'test_steps',
      progress: { done: 2, total: 2 },
      resource: { type: 'test_result' },
      error: null,
    });
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
    const res = await t.request('/api/v1/operations/op_01jd8x6y5k2r3t4v5w6x7y8z9a?wait_seconds=51', {
      token: owner.token,
    });
    expect(res.status).toBe(400);
    const missing = await t.request('/api/v1/operations/op_01jd8x6y5k2r3t4v5w6x7y8z9a', { token: owner.token });
    expect(missing.status).toBe(404);
  });
});
