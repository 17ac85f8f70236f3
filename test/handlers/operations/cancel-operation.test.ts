// cancel_operation through the real app: cancellation is cooperative, and a member cancels only what
// they started. Runs on PGlite, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/handlers/actor.ts';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';
import {
  type OperationJson,
  openGate,
  quietHeartbeatEnv,
  readOperation,
  startSteps,
  stepsKinds,
  untilStatus,
} from './harness.ts';

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

async function addMember(admin: SignupResult): Promise<string> {
  const email = `member.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;
  const invited = await t.request('/api/v1/invitations', {
    method: 'POST',
    token: admin.token,
    json: { email, role: 'member' },
  });
  const { token } = (await invited.json()) as { token: string };
  const accepted = await t.request('/api/v1/invitations/accept', {
    method: 'POST',
    json: { token, name: 'Member', password: 'correct horse battery' },
  });
  expect(accepted.status).toBe(201);
  return ((await accepted.json()) as { login: { access_token: string } }).login.access_token;
}

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
    expect((await t.request(`/api/v1/operations/${id}/cancel`, { method: 'POST', token: stranger.token })).status).toBe(
      404,
    );
    openGate(id);
    await until(id, 'succeeded');
  });
});
