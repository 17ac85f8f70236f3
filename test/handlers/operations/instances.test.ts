// get_operation on one instance is woken by a change another process makes: instance A only
// enqueues and serves the wait, instance B's worker runs the job, and A learns of each change by
// NOTIFY (its re-read timer is set far beyond the wait, so only the notification can answer it).
// PGlite admits one process and its socket carries no NOTIFY, so this runs on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/db/connection.ts';
import type { Actor } from '../../../src/handlers/actor.ts';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { openGate, startSteps, stepsKinds } from './harness.ts';

const url = process.env.DATABASE_URL;
const env = { OPERATION_WAIT_RECHECK_MS: '600000' };

let a: TestApp;
let b: TestApp;
let secondDb: Database;
let owner: SignupResult;

describe.skipIf(!url)('operations across instances on one PostgreSQL database', () => {
  beforeAll(async () => {
    a = await createTestApp({ env, jobs: 'enqueue', extraJobKinds: stepsKinds });
    const [{ schema }] = await a.deps.db.sql<{ schema: string }[]>`select current_schema() as schema`;
    secondDb = await openDatabase({ databaseUrl: url, searchPath: schema });
    b = await createTestApp({ db: secondDb, env, jobs: 'work', jobsSchema: a.jobsSchema, extraJobKinds: stepsKinds });
    owner = await a.signup();
  });
  afterAll(async () => {
    await b?.close();
    await secondDb?.close();
    await a?.close();
  });

  it('wakes a get_operation waiting on instance A when the worker on instance B changes the operation', async () => {
    const actor: Actor = { kind: 'user', workspaceId: owner.workspaceId, userId: owner.userId, role: 'owner' };
    const id = await startSteps(a, actor, { steps: 1 });
    const statuses: string[] = [];
    let status = 'queued';
    let progressed = false;
    while (status !== 'succeeded') {
      const res = await a.request(`/api/v1/operations/${id}?wait_seconds=30`, { token: owner.token });
      const op = (await res.json()) as { status: string; progress: { done: number } };
      // A wait that ran out would come back unchanged; every answer here is a change B made.
      expect(op.status !== status || op.progress.done > 0 !== progressed).toBe(true);
      status = op.status;
      progressed = op.progress.done > 0;
      statuses.push(status);
      if (status === 'running' && !progressed) openGate(id);
    }
    expect(statuses[0]).toBe('running');
    expect(statuses.at(-1)).toBe('succeeded');
  });
});
