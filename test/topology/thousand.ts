// The 1,000-message sequence of the topology test: a workspace with a webhook endpoint, four sandbox
// mailboxes and the leads, a one-step sequence approved by its owner and launched through nginx; and what
// the database then says about it.
import type { Sql } from 'postgres';
import { expect } from 'vitest';
import { playHuman } from '../handlers/connectors/human.ts';
import type { Front, Owner } from './front.ts';

export interface Launched {
  owner: Owner;
  sequenceId: string;
  launchedAt: number;
}

async function connectMailboxes(f: Front, token: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const started = await f.api('/api/v1/connectors/oauth', {
      method: 'POST',
      token,
      status: 201,
      json: { provider: 'gmail', capabilities: ['read_replies'] },
    });
    const email = `box${i}.${process.pid}@sandbox.example`;
    expect((await playHuman(started.authorization_url, { email })).status).toBe(200);
    ids.push(started.id);
  }
  return ids;
}

/** Everything up to the launch; the webhook endpoint subscribes to `eventTypes` at `hookUrl`; returns its secret too. */
export async function launchSequence(
  f: Front,
  leads: number,
  hook: { url: string; eventTypes: string[] },
): Promise<Launched & { secret: string }> {
  const owner = await f.signup();
  const { token } = owner;
  const endpoint = await f.api('/api/v1/webhook-endpoints', {
    method: 'POST',
    token,
    status: 201,
    json: { url: hook.url, event_types: hook.eventTypes },
  });
  await f.api('/api/v1/workspace/settings', {
    method: 'PATCH',
    token,
    json: { postal_address: 'Topology Inc, 1 Main St' },
  });
  const mailboxes = await connectMailboxes(f, token, 4);
  const rows = Array.from({ length: leads }, (_, i) => ({ email: `lead${i}@example.com`, first_name: `L${i}` }));
  const imported = (await f.api('/api/v1/leads/imports', { method: 'POST', token, json: { rows } })).import;
  expect(imported.counts).toMatchObject({ total: leads, created: leads });
  const everyDay = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
  const sequence = await f.api('/api/v1/sequences', {
    method: 'POST',
    token,
    status: 201,
    json: {
      name: 'A thousand',
      sender_connector_ids: mailboxes,
      schedule: { timezone: 'UTC', days: everyDay, start_hour: 0, end_hour: 24 },
      daily_limit: 2000,
      steps: [{ subject: 'Hello {{first_name}}', body: 'Hi {{first_name}}, one message, once.' }],
    },
  });
  const path = `/api/v1/sequences/${sequence.id}`;
  const submitted = await f.api(`${path}/submit`, { method: 'POST', token });
  await f.api(`${path}/approve`, { method: 'POST', token, json: { revision: submitted.revision } });
  const launchedAt = performance.now();
  const launched = await f.api(`${path}/launch`, {
    method: 'POST',
    token,
    json: { enroll: { import_id: imported.id } },
  });
  expect(launched.enrollment.counts).toMatchObject({ enrolled: leads });
  return { owner, sequenceId: sequence.id, launchedAt, secret: endpoint.secret };
}

/** The sequence's messages by status. */
export async function messageStatuses(sql: Sql, sequenceId: string): Promise<Record<string, number>> {
  const rows = await sql<{ status: string; n: number }[]>`
    select status, count(*)::int as n from sequence_messages where sequence_id = ${sequenceId} group by status`;
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** (enrollment, step) pairs with other than one message, and sandbox recipients with other than one delivery. */
export async function repeats(sql: Sql, launched: Launched) {
  const messages = await sql`
    select enrollment_id, step, count(*)::int as n from sequence_messages where sequence_id = ${launched.sequenceId}
    group by enrollment_id, step having count(*) <> 1`;
  const deliveries = await sql<{ to_header: string; n: number }[]>`
    select to_header, count(*)::int as n from sandbox_messages where workspace_id = ${launched.owner.workspaceId}
    group by to_header`;
  return {
    messages: [...messages],
    recipients: deliveries.length,
    deliveredTwice: deliveries.filter((d) => d.n !== 1),
  };
}
