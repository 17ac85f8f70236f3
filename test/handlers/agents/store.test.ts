// The agent store and the edges of runs: the listing and its input schemas, input checked against an agent's
// schema, what a run refuses to start without, cancelling at each stage, and workspace isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { startSite, type Site } from '../knowledge/site.ts';
import { json, readyWorkspace, type Workspace } from '../sequences/sequence-fixtures.ts';
import { agentEnv, brief, follow, ingestSite, runAgent, waiting, type Run } from './agent-fixtures.ts';

let t: TestApp;
let site: Site;
let ws: Workspace;
let server: { close(): Promise<void> };

beforeAll(async () => {
  site = await startSite();
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'work', env: agentEnv }));
  ws = await readyWorkspace(t);
  await ingestSite(t, ws.owner.token, site.url);
});
afterAll(async () => {
  await site?.close();
  await server?.close();
});

describe('list_agents_in_store and get_agent', () => {
  it('lists the email-sequence-generator with a stable id, its JSON Schema input and what it needs', async () => {
    const { data } = await json(t.request('/api/v1/agents', { token: ws.owner.token }));
    const agent = data.find((a: any) => a.slug === 'email-sequence-generator');
    expect(agent).toMatchObject({
      category: 'email',
      version: '1.0.0',
      produces: ['email_sequence'],
      required_connectors: ['gmail'],
    });
    expect(agent.id).toMatch(/^agt_[0-9a-f]{26}$/);
    expect(agent.input_schema).toMatchObject({
      type: 'object',
      required: ['goal', 'audience'],
      additionalProperties: false,
    });
    expect(agent.input_schema.properties.steps).toMatchObject({ type: 'integer', minimum: 1, maximum: 6, default: 3 });
    expect(await json(t.request(`/api/v1/agents/${agent.id}`, { token: ws.owner.token }))).toEqual(agent);
    expect(await json(t.request('/api/v1/agents/email-sequence-generator', { token: ws.owner.token }))).toEqual(agent);
  });

  it("answers 404 naming the store's agents for an unknown one, and 401 without a credential", async () => {
    const res = await json(t.request('/api/v1/agents/blog-wizard', { token: ws.owner.token }), 404);
    expect(res.detail).toContain('email-sequence-generator');
    expect((await t.request('/api/v1/agents')).status).toBe(401);
  });
});

describe('run_agent refusals', () => {
  it("refuses input that does not match the agent's schema, naming each field, and queues nothing", async () => {
    const before = (await json(t.request('/api/v1/agent-runs?limit=100', { token: ws.owner.token }))).data.length;
    const res = await json(
      t.request('/api/v1/agents/email-sequence-generator/runs', {
        method: 'POST',
        token: ws.owner.token,
        json: { input: { goal: 'x', steps: 9, colour: 'red' } },
      }),
      400,
    );
    expect(res.code).toBe('validation_failed');
    const pointers = res.errors.map((e: any) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/input/goal', '/input/audience', '/input/steps']));
    expect(res.errors.some((e: any) => e.code === 'unrecognized_keys')).toBe(true);
    expect((await json(t.request('/api/v1/agent-runs?limit=100', { token: ws.owner.token }))).data).toHaveLength(
      before,
    );
  });

  it('refuses to start without the postal address every footer needs', async () => {
    const owner = await t.signup();
    const res = await json(
      t.request('/api/v1/agents/email-sequence-generator/runs', {
        method: 'POST',
        token: owner.token,
        json: { input: brief },
      }),
      409,
    );
    expect(res.code).toBe('sequence_blocked');
    expect(res.detail).toContain('update_workspace_settings');
    expect((await json(t.request('/api/v1/agent-runs', { token: owner.token }))).data).toEqual([]);
  });

  it('fails the run with no_knowledge when the workspace knows nothing about the goal', async () => {
    const owner = await t.signup();
    await json(
      t.request('/api/v1/workspace/settings', {
        method: 'PATCH',
        token: owner.token,
        json: { postal_address: '3 Lane, Town' },
      }),
    );
    const run = await follow(
      t,
      owner.token,
      (await runAgent(t, owner.token, { ...brief, sender_connector_id: ws.connector.id })).id,
    );
    expect(run.status).toBe('failed');
    expect(run.error?.code).toBe('not_found');
    const own = await readyWorkspace(t, []);
    const bare = await follow(t, own.owner.token, (await runAgent(t, own.owner.token, brief)).id);
    expect(bare).toMatchObject({ status: 'failed', error: { code: 'no_knowledge' } });
    expect(bare.steps.map((s) => s.status)).toEqual([
      'succeeded',
      'failed',
      'pending',
      'pending',
      'pending',
      'pending',
    ]);
  });
});

describe('cancel_agent_run', () => {
  it('cancels a waiting run at once, is harmless twice, and refuses a finished run', async () => {
    const token = ws.owner.token;
    const parked = await follow(t, token, (await runAgent(t, token, { ...brief, steps: 1 })).id, waiting);
    const cancelled = await json<Run>(t.request(`/api/v1/agent-runs/${parked.id}/cancel`, { method: 'POST', token }));
    expect(cancelled).toMatchObject({ status: 'cancelled', required_action: null });
    expect(cancelled.steps.at(-1)?.status).toBe('cancelled');
    expect(
      (await json<Run>(t.request(`/api/v1/agent-runs/${parked.id}/cancel`, { method: 'POST', token }))).status,
    ).toBe('cancelled');
    // What it made stays: the sequence is still there, pending approval.
    const seq = await json(t.request(`/api/v1/sequences/${parked.output?.resources[0].id}`, { token }));
    expect(seq.status).toBe('pending_approval');

    const other = await follow(t, token, (await runAgent(t, token, { ...brief, steps: 1 })).id, waiting);
    await json(
      t.request(`/api/v1/sequences/${other.output?.resources[0].id}/reject`, {
        method: 'POST',
        token,
        json: { note: 'no' },
      }),
    );
    expect((await follow(t, token, other.id)).status).toBe('failed');
    const refused = await json(t.request(`/api/v1/agent-runs/${other.id}/cancel`, { method: 'POST', token }), 409);
    expect(refused.code).toBe('agent_run_finished');
  });
});

describe('workspace isolation', () => {
  it('hides a run from every other workspace, in reads, lists and cancels', async () => {
    const run = await runAgent(t, ws.owner.token, { ...brief, steps: 1 });
    const stranger = await t.signup();
    await json(t.request(`/api/v1/agent-runs/${run.id}`, { token: stranger.token }), 404);
    await json(t.request(`/api/v1/agent-runs/${run.id}/cancel`, { method: 'POST', token: stranger.token }), 404);
    expect((await json(t.request('/api/v1/agent-runs', { token: stranger.token }))).data).toEqual([]);
    const mine = await json(
      t.request('/api/v1/agent-runs?agent_id=email-sequence-generator&limit=100', { token: ws.owner.token }),
    );
    expect(mine.data.map((r: Run) => r.id)).toContain(run.id);
    await follow(t, ws.owner.token, run.id, waiting);
  });
});
