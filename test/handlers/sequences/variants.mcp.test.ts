// A/B variants as an agent lives them over /mcp with the official SDK client, in sandbox mode: it writes a
// step with variants and a winner rule, previews every variant, a person approves the one revision over
// REST, and after launch list_sent_messages shows each message's variant, the one its enrollment was given.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { connectAgent, type Agent } from '../replies/mcp-harness.ts';
import { assignVariant } from '../../../src/handlers/sequences/variants.ts';
import { drain, json, readyWorkspace, type Workspace } from './sequence-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let ws: Workspace;
let agent: Agent;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', env: { SEQUENCE_SEND_SPACING_MS: '0' } }));
  ws = await readyWorkspace(t, [
    { email: 'lin@example.com', first_name: 'Lin', company: 'Orbit' },
    { email: 'kai@example.com', first_name: 'Kai', company: 'Comet' },
    { email: 'ivy@example.com', first_name: 'Ivy', company: 'Nova' },
    { email: 'rex@example.com', first_name: 'Rex', company: 'Pulsar' },
  ]);
  agent = await connectAgent(server.url, (await t.createKey(ws.owner.token, 'agent key')).key);
});
afterAll(async () => {
  await agent?.client.close().catch(() => {});
  await server?.close();
  await t?.close();
});

describe('A/B variants over MCP', () => {
  it('creates variants, previews each, and sends every enrollment its own, shown by list_sent_messages', async () => {
    const draft = await agent.ok('create_email_sequence', {
      name: 'A/B over MCP',
      sender_connector_id: ws.connector.id,
      schedule: {
        timezone: 'UTC',
        days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        start_hour: 0,
        end_hour: 24,
      },
      auto_select_winner: { metric: 'reply_rate', min_sends_per_variant: 50 },
      steps: [
        {
          variants: [
            { subject: 'Hello {{first_name}}', body: 'Short version for {{company}}.', weight: 2 },
            { subject: 'A question for {{company}}', body: 'Long version for {{company}}.', weight: 3 },
          ],
        },
      ],
    });
    expect(draft.steps[0].variants.map((v: any) => [v.label, v.weight])).toEqual([
      ['A', 2],
      ['B', 3],
    ]);
    expect(draft.auto_select_winner).toEqual({ metric: 'reply_rate', min_sends_per_variant: 50, confidence: 0.95 });

    const preview = await agent.ok('preview_email_sequence', { sequence_id: draft.id, lead_ids: [ws.leads[0].id] });
    expect(preview.leads[0].messages.map((m: any) => [m.position, m.variant, m.subject])).toEqual([
      [1, 1, 'Hello Lin'],
      [1, 2, 'A question for Orbit'],
    ]);
    expect(preview.checks.filter((c: any) => c.severity === 'blocking')).toEqual([]);

    const submitted = await agent.ok('submit_email_sequence_for_approval', { sequence_id: draft.id });
    await json(
      t.request(`/api/v1/sequences/${draft.id}/approve`, {
        method: 'POST',
        token: ws.owner.token,
        json: { revision: submitted.revision },
      }),
    );
    const launched = await agent.ok('launch_email_sequence', {
      sequence_id: draft.id,
      enroll: { lead_ids: ws.leads.map((l) => l.id) },
    });
    expect(launched.enrollment.counts).toMatchObject({ enrolled: 4, skipped: 0 });

    await drain(t);
    const sent = await agent.ok('list_sent_messages', { sequence_id: draft.id, status: 'sent' });
    expect(sent.data).toHaveLength(4);
    for (const m of sent.data) {
      const variant = assignVariant(m.enrollment_id, 1, [2, 3]);
      expect(m.variant).toBe(variant);
      expect(m.subject).toMatch(variant === 1 ? /^Hello / : /^A question for /);
    }
    const seq = await agent.ok('get_email_sequence', { sequence_id: draft.id });
    expect(seq.variant_winners).toEqual([]);
  });
});
