// Runs survive the service: a run queued by one instance is run by the next one on the same database; a run
// whose worker died mid-way is taken over from the step it stopped at (nothing before it done twice); a
// waiting run fails with approval_timeout / authorization_timeout once its deadline passes, and a consent
// link that expired while it waited is renewed on the next look.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { createTestDatabase } from '../../helpers/db.ts';
import type { Database } from '../../../src/db/connection.ts';
import { recheckAgentRunsJob } from '../../../src/handlers/agents/resume.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { startSite, type Site } from '../knowledge/site.ts';
import { json, readyWorkspace, type Workspace } from '../sequences/sequence-fixtures.ts';
import { agentEnv, brief, follow, ingestSite, runAgent, waiting, type Run } from './agent-fixtures.ts';

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site?.close());

async function sweep(t: TestApp): Promise<void> {
  await t.deps.jobs.enqueue(recheckAgentRunsJob, {});
  t.deps.jobs.wake(recheckAgentRunsJob);
}

describe('runs across restarts', () => {
  let db: Database;
  const jobsSchema = `jobs_agents_${process.pid}`;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.sql.unsafe(`drop schema if exists ${jobsSchema} cascade`).catch(() => {});
    await db.close();
  });

  it('runs a run another instance queued, and takes over a run whose worker died from the step it reached', async () => {
    const first = await listenOnReservedPort({ db, jobs: 'work', jobsSchema, env: agentEnv });
    const ws: Workspace = await readyWorkspace(first.app);
    await ingestSite(first.app, ws.owner.token, site.url);
    await first.server.close();
    await first.app.close();

    // An instance that only queues (its worker never runs) accepts the run and stops.
    const queuing = await createTestApp({ db, jobs: 'enqueue', jobsSchema, env: agentEnv });
    const queued = await runAgent(queuing, ws.owner.token, { ...brief, steps: 1 });
    await queuing.close();

    const next = await createTestApp({ db, jobs: 'work', jobsSchema, env: agentEnv });
    try {
      const parked = await follow(next, ws.owner.token, queued.id, waiting);
      expect(parked.required_action?.type, JSON.stringify(parked.error)).toBe('sequence_approval');

      // The worker that held the run died while it was at the approval step, an hour ago.
      await db.sql`update agent_runs set status = 'running', runner_job = 'a-dead-job', updated_at = now() - interval '1 hour' where id = ${queued.id}`;
      await sweep(next);
      const retaken = await follow(next, ws.owner.token, queued.id, waiting);
      expect(retaken.required_action?.type).toBe('sequence_approval');
      const sequences = await json(next.request('/api/v1/sequences?limit=100', { token: ws.owner.token }));
      expect(sequences.data).toHaveLength(1);

      const seq = sequences.data[0];
      await json(
        next.request(`/api/v1/sequences/${seq.id}/approve`, {
          method: 'POST',
          token: ws.owner.token,
          json: { revision: seq.revision },
        }),
      );
      expect((await follow(next, ws.owner.token, queued.id)).status).toBe('succeeded');
    } finally {
      await next.close();
    }
  });
});

describe('deadlines', () => {
  let t: TestApp;
  let server: { close(): Promise<void> };
  let now = new Date('2026-11-24T10:00:00Z');
  beforeAll(async () => {
    ({ app: t, server } = await listenOnReservedPort({
      jobs: 'work',
      clock: { now: () => now },
      env: { ...agentEnv, AGENT_APPROVAL_TIMEOUT_SECONDS: '3600', AGENT_AUTHORIZATION_TIMEOUT_SECONDS: '1800' },
    }));
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  async function followChange(key: string, runId: string, from: Run): Promise<Run> {
    return follow(
      t,
      key,
      runId,
      (r) => r.status !== from.status || r.required_action?.url !== from.required_action?.url,
    );
  }

  it('fails a run nobody approved in time with approval_timeout, leaving the sequence pending', async () => {
    const ws = await readyWorkspace(t);
    const { key } = await t.createKey(ws.owner.token);
    await ingestSite(t, key, site.url);
    const parked = await follow(t, key, (await runAgent(t, key, { ...brief, steps: 1 })).id, waiting);
    expect(Date.parse(parked.required_action?.expires_at as string)).toBe(now.getTime() + 3600_000);
    now = new Date(now.getTime() + 3601_000);
    await sweep(t);
    const failed = await followChange(key, parked.id, parked);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'approval_timeout' }, required_action: null });
    expect((await json(t.request(`/api/v1/sequences/${parked.output?.resources[0].id}`, { token: key }))).status).toBe(
      'pending_approval',
    );
  });

  it('renews an expired consent link while it waits, then fails with authorization_timeout', async () => {
    const owner = await t.signup();
    const { key } = await t.createKey(owner.token);
    await json(
      t.request('/api/v1/workspace/settings', {
        method: 'PATCH',
        token: key,
        json: { postal_address: '4 Quay, Port' },
      }),
    );
    const parked = await follow(t, key, (await runAgent(t, key, brief)).id, waiting);
    expect(parked.required_action?.type).toBe('connector_authorization');
    now = new Date(now.getTime() + 11 * 60_000);
    await sweep(t);
    const renewed = await followChange(key, parked.id, parked);
    expect(renewed.status).toBe('requires_action');
    expect(renewed.required_action?.url).not.toBe(parked.required_action?.url);
    expect(renewed.required_action?.expires_at).toBe(parked.required_action?.expires_at);
    now = new Date(now.getTime() + 20 * 60_000);
    await sweep(t);
    const failed = await followChange(key, parked.id, renewed);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'authorization_timeout' } });
  });
});
