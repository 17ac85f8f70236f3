// Runs of the email-sequence-generator through the real app with jobs running: a grounded draft from the
// ingested site, the pause for a person's approval and the resumption on their decision, the pause for a
// connector's consent, and the same draft from the same knowledge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { startSite, type Site } from '../knowledge/site.ts';
import { playHuman } from '../connectors/human.ts';
import { json, readyWorkspace, type Workspace } from '../sequences/sequence-fixtures.ts';
import { agentEnv, brief, follow, ingestSite, runAgent, waiting, type Run } from './agent-fixtures.ts';

let t: TestApp;
let site: Site;
let ws: Workspace;
let sourceId: string;
let server: { close(): Promise<void> };

beforeAll(async () => {
  site = await startSite();
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'work', env: agentEnv }));
  ws = await readyWorkspace(t);
  sourceId = await ingestSite(t, ws.owner.token, site.url);
});
afterAll(async () => {
  await site?.close();
  await server?.close();
});

const sequenceOf = (run: Run) => run.output?.resources.find((r) => r.type === 'email_sequence')?.id as string;

describe('the email-sequence-generator', () => {
  it('writes a draft from the knowledge, waits for the approval and succeeds once a person approves', async () => {
    const token = ws.owner.token;
    const started = await runAgent(t, token, brief);
    expect(started).toMatchObject({ status: 'queued', agent_slug: 'email-sequence-generator', required_action: null });
    const parked = await follow(t, token, started.id, waiting);
    expect(parked.status, JSON.stringify(parked.error)).toBe('requires_action');
    expect(parked.required_action).toMatchObject({ type: 'sequence_approval', resource: { type: 'email_sequence' } });
    expect(parked.required_action?.url).toContain('/admin/approvals?sequence=');
    expect(parked.steps.map((s) => s.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
      'waiting',
    ]);
    expect(parked.notes.join(' ')).toContain('template writer');

    const sequence = await json(t.request(`/api/v1/sequences/${sequenceOf(parked)}`, { token }));
    expect(sequence).toMatchObject({ status: 'pending_approval', sender_connector_id: ws.connector.id });
    expect(sequence.steps).toHaveLength(3);
    const text = sequence.steps.map((s: any) => s.body).join('\n');
    expect(text).toMatch(/Roadrunner|reusable|launch/i);
    expect(text).toContain('{{first_name | "there"}}');
    for (const step of sequence.steps) {
      expect(step.sources.length).toBeGreaterThan(0);
      for (const source of step.sources) expect(source.url.startsWith(site.url)).toBe(true);
    }

    await json(
      t.request(`/api/v1/sequences/${sequence.id}/approve`, {
        method: 'POST',
        token,
        json: { revision: sequence.revision },
      }),
    );
    const done = await follow(t, token, started.id);
    expect(done.status).toBe('succeeded');
    expect(done.required_action).toBeNull();
    expect(done.output?.resources).toEqual([{ type: 'email_sequence', id: sequence.id }]);
    expect(done.steps.every((s) => s.status === 'succeeded')).toBe(true);
  });

  it('answers a waiting get_agent_run at once when the run began waiting for a person between two calls', async () => {
    const agent = (await t.createKey(ws.owner.token, 'follower')).key;
    const started = await runAgent(t, agent, { ...brief, steps: 1 });
    expect(started.status).toBe('queued');
    // Someone else watches it park; the agent, told "queued", comes back only then: no change follows its call.
    await follow(t, ws.owner.token, started.id, waiting);
    const call = json<Run>(t.request(`/api/v1/agent-runs/${started.id}?wait_seconds=50`, { token: agent }));
    const halfway = new Promise<string>((resolve) =>
      setTimeout(() => resolve('no answer at half the wait'), 25_000).unref(),
    );
    const answer = await Promise.race([call, halfway]);
    expect(answer).toMatchObject({ status: 'requires_action', required_action: { type: 'sequence_approval' } });
  });

  it('writes the same draft from the same input and knowledge', async () => {
    const token = ws.owner.token;
    const drafts = [];
    for (let i = 0; i < 2; i++) {
      const run = await follow(
        t,
        token,
        (await runAgent(t, token, { ...brief, knowledge_source_ids: [sourceId], tone: 'friendly' })).id,
        waiting,
      );
      const seq = await json(t.request(`/api/v1/sequences/${sequenceOf(run)}`, { token }));
      drafts.push(seq.steps);
    }
    expect(drafts[1]).toEqual(drafts[0]);
    expect(drafts[0][0].body.startsWith('Hi {{first_name | "there"}},')).toBe(true);
  });

  it("fails with the reviewer's note when the person rejects the sequence", async () => {
    const token = ws.owner.token;
    const parked = await follow(t, token, (await runAgent(t, token, { ...brief, steps: 1 })).id, waiting);
    await json(
      t.request(`/api/v1/sequences/${sequenceOf(parked)}/reject`, {
        method: 'POST',
        token,
        json: { note: 'Too pushy' },
      }),
    );
    const done = await follow(t, token, parked.id);
    expect(done.status).toBe('failed');
    expect(done.error?.code).toBe('sequence_rejected');
    expect(done.error?.detail).toContain('Too pushy');
    expect(done.output?.resources).toEqual([{ type: 'email_sequence', id: sequenceOf(parked) }]);
  });

  it('waits for a person to connect Gmail when the workspace has no sender, then goes on by itself', async () => {
    const owner = await t.signup();
    const token = owner.token;
    await json(
      t.request('/api/v1/workspace/settings', {
        method: 'PATCH',
        token,
        json: { postal_address: '2 Side St, Springfield' },
      }),
    );
    await ingestSite(t, token, site.url);
    const parked = await follow(t, token, (await runAgent(t, token, brief)).id, waiting);
    expect(parked.required_action).toMatchObject({ type: 'connector_authorization', resource: { type: 'connector' } });
    expect(parked.steps[0].status).toBe('waiting');
    const page = await playHuman(parked.required_action?.url as string, { email: 'sender@sandbox.example' });
    expect(page.status).toBe(200);
    const next = await follow(t, token, parked.id, (r) => r.required_action?.type === 'sequence_approval');
    expect(next.required_action?.type, JSON.stringify(next.error)).toBe('sequence_approval');
    const seq = await json(t.request(`/api/v1/sequences/${sequenceOf(next)}`, { token }));
    expect(seq.sender_connector_id).toBe(parked.required_action?.resource.id);
  });
});
