// list_operations through the real app: newest first, typed filters (`status` is an array of the operation
// statuses, sent comma-separated), the contract's default page size, and signed cursors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorFromPrincipal } from '../../../src/handlers/actor.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { openGate, startSteps, stepsKinds } from './harness.ts';

let t: TestApp;

// Heartbeats only when a run starts, so a test decides when an operation falls silent.
const env = { OPERATION_WAIT_RECHECK_MS: '600000', OPERATION_HEARTBEAT_MS: '3600000' };

beforeAll(async () => {
  t = await createTestApp({ jobs: 'work', env, extraJobKinds: stepsKinds });
});
afterAll(async () => t?.close());

interface OperationJson {
  id: string;
  type: string;
  status: string;
}

interface OperationPage {
  data: OperationJson[];
  has_more: boolean;
  next_cursor: string | null;
}

/** A workspace with two succeeded operations and one running (held at its gate until `release`). */
async function workspaceWithOperations() {
  const admin = await t.signup();
  const actor = actorFromPrincipal({
    kind: 'jwt',
    userId: admin.userId,
    workspaceId: admin.workspaceId,
    role: 'owner',
    scopes: ['*'],
    credentialId: 'jti',
  });
  const done = [await startSteps(t, actor, { steps: 0 }), await startSteps(t, actor, { steps: 0 })];
  const running = await startSteps(t, actor, { steps: 1 });
  const read = async (id: string, waitSeconds: number) =>
    (await (
      await t.request(`/api/v1/operations/${id}?wait_seconds=${waitSeconds}`, { token: admin.token })
    ).json()) as OperationJson;
  // A wait ends at the operation's next change: one already as wanted is read without waiting (the held one would
  // not change again before the test's own wait ran out).
  for (const id of [...done, running]) {
    const want = id === running ? 'running' : 'succeeded';
    for (let op = await read(id, 0); op.status !== want; ) op = await read(id, 20);
  }
  return { admin, done, running, release: () => openGate(running) };
}

describe('list_operations', () => {
  it('lists newest first, filters by status and type, and pages with cursors', async () => {
    const admin = await t.signup();
    const actor = actorFromPrincipal({
      kind: 'jwt',
      userId: admin.userId,
      workspaceId: admin.workspaceId,
      role: 'owner',
      scopes: ['*'],
      credentialId: 'jti',
    });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await startSteps(t, actor, { steps: 0 }));
    const running = await startSteps(t, actor, { steps: 1 });
    for (const id of ids) {
      const op = (await (
        await t.request(`/api/v1/operations/${id}?wait_seconds=20`, { token: admin.token })
      ).json()) as OperationJson;
      if (op.status !== 'succeeded')
        await (await t.request(`/api/v1/operations/${id}?wait_seconds=20`, { token: admin.token })).json();
    }
    const page1 = (await (
      await t.request('/api/v1/operations?limit=2&type=test_steps', { token: admin.token })
    ).json()) as { data: OperationJson[]; next_cursor: string };
    expect(page1.data.map((o) => o.id)).toEqual([running, ids[2]]);
    const page2 = (await (
      await t.request(`/api/v1/operations?limit=2&type=test_steps&cursor=${page1.next_cursor}`, { token: admin.token })
    ).json()) as { data: OperationJson[]; has_more: boolean };
    expect(page2.data.map((o) => o.id)).toEqual([ids[1], ids[0]]);
    expect(page2.has_more).toBe(false);
    const other = (await (await t.request('/api/v1/operations?type=webhook_test', { token: admin.token })).json()) as {
      data: unknown[];
    };
    expect(other.data).toEqual([]);
    const bad = await t.request('/api/v1/operations?status=done', { token: admin.token });
    expect(bad.status).toBe(400);
    openGate(running);
  });

  it('filters by several statuses given comma-separated, repeats and blanks ignored', async () => {
    const { admin, done, running, release } = await workspaceWithOperations();
    const ids = async (query: string) => {
      const res = await t.request(`/api/v1/operations${query}`, { token: admin.token });
      expect(res.status).toBe(200);
      return ((await res.json()) as OperationPage).data.map((o) => o.id);
    };
    expect(await ids('?status=running')).toEqual([running]);
    expect(await ids('?status=succeeded')).toEqual([done[1], done[0]]);
    expect(await ids('?status=succeeded,running,succeeded,')).toEqual([running, done[1], done[0]]);
    expect(await ids('?status=queued,failed')).toEqual([]);
    expect(await ids('?status=')).toEqual([running, done[1], done[0]]);
    expect(await ids('?type=test_steps,other&status=running')).toEqual([running]);
    release();
  });

  it('refuses a status outside the enum with one 400 on query.status naming every status', async () => {
    const admin = await t.signup();
    const res = await t.request('/api/v1/operations?status=running,done', { token: admin.token });
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { code: string; detail: string; errors: unknown[] };
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors).toEqual([
      {
        field: 'query.status',
        code: 'invalid_value',
        message: 'has "done", which is not one of queued, running, succeeded, failed, cancelled',
      },
    ]);
    expect(problem.detail).toContain('query.status');
  });

  it('pages by the default size of 20 when no limit is given, and refuses a limit out of bounds', async () => {
    const admin = await t.signup();
    const actor = actorFromPrincipal({
      kind: 'jwt',
      userId: admin.userId,
      workspaceId: admin.workspaceId,
      role: 'owner',
      scopes: ['*'],
      credentialId: 'jti',
    });
    for (let i = 0; i < 21; i++) await startSteps(t, actor, { steps: 0 });
    const first = (await (await t.request('/api/v1/operations', { token: admin.token })).json()) as OperationPage;
    expect(first.data).toHaveLength(20);
    expect(first.has_more).toBe(true);
    const rest = (await (
      await t.request(`/api/v1/operations?cursor=${first.next_cursor}`, { token: admin.token })
    ).json()) as OperationPage;
    expect(rest.data).toHaveLength(1);
    expect(rest).toMatchObject({ has_more: false, next_cursor: null });
    expect((await t.request('/api/v1/operations?limit=0', { token: admin.token })).status).toBe(400);
    expect((await t.request('/api/v1/operations?limit=101', { token: admin.token })).status).toBe(400);
  });
});
