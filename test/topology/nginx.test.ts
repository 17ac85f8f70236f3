// Past one machine (docs/scaling.md): two built service instances with JOBS_IN_PROCESS=false, two workers and
// Debian's nginx in front of the instances (round-robin, no sticky sessions), started at the same moment on a
// fresh PostgreSQL database (test/topology/cluster.ts). Through nginx: the seed's agent run over MCP in both
// protocol eras; a revoked key refused by both instances from the next request on; the per-credential rate
// limit shared by the instances; a 1,000-message sequence sent never twice while a worker is killed with SIGKILL
// and an instance restarted; and its webhooks delivered. Skips, saying why, without DATABASE_URL or nginx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { playHuman } from '../handlers/connectors/human.ts';
import { startSite, type Site } from '../handlers/knowledge/site.ts';
import { startReceiver, type Receiver } from '../handlers/webhooks/receiver.ts';
import { runAgentScenario, type AgentSession, type ScenarioWorld } from '../e2e/agent-run-scenario.ts';
import { reconnectOverHttp, sandboxMailbox } from '../e2e/agent-run-world.ts';
import { startCluster, type Cluster } from './cluster.ts';
import { findNginx } from './processes.ts';

const adminUrl = process.env.DATABASE_URL;
const nginx = findNginx();
const skipped = !adminUrl
  ? 'DATABASE_URL is unset: several processes cannot share the embedded database'
  : 'missing' in nginx
    ? nginx.missing
    : undefined;
if (skipped) console.log(`test/topology/nginx.test.ts skipped: ${skipped}`);

const RATE_LIMIT = 300;
const LEADS = 1000;
const env = {
  OUTBOUND_ALLOW_PRIVATE: 'true',
  KNOWLEDGE_CRAWL_DELAY_MS: '0',
  MCP_ALLOWED_ORIGINS: '',
  SEQUENCE_SEND_SPACING_MS: '0',
  SEQUENCE_MAILBOX_DAILY_CAP: '2000',
  // A dead sender's reservations go back after this (the least the service allows).
  SEQUENCE_STALE_AFTER_SECONDS: '30',
  JOBS_POLL_INTERVAL_MS: '500',
  // Two mailbox jobs per worker, so with four mailboxes both workers send and the killed one was sending.
  JOBS_CONCURRENCY: '2',
  JOB_LEASE_SECONDS: '5',
  WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1',
  RATE_LIMIT_PER_CREDENTIAL: String(RATE_LIMIT),
  // One window for the whole test (thirty days), and syncs often enough to wait for them.
  RATE_LIMIT_WINDOW_SECONDS: String(30 * 86_400),
  RATE_LIMIT_SYNC_MS: '100',
  SHUTDOWN_TIMEOUT_MS: '5000',
};

let cluster: Cluster;
let site: Site;
let receiver: Receiver | undefined;

beforeAll(async () => {
  if (skipped) return;
  [cluster, site] = await Promise.all([
    startCluster({ adminUrl: adminUrl as string, nginx: (nginx as { path: string }).path, env }),
    startSite(),
  ]);
}, 120_000);
afterAll(async () => {
  await cluster?.close();
  await site?.close();
  await receiver?.close();
});

async function api<T = any>(
  path: string,
  options: { method?: string; token?: string; json?: unknown; status?: number } = {},
): Promise<T> {
  const res = await fetch(`${cluster.url}${path}`, {
    method: options.method ?? 'GET',
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.json !== undefined ? JSON.stringify(options.json) : undefined,
  });
  const text = await res.text();
  expect(res.status, `${options.method ?? 'GET'} ${path}: ${text}`).toBe(options.status ?? 200);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Which instance answered, by the port nginx names in X-Upstream. */
const answeredBy = (res: Response) => Number(res.headers.get('x-upstream')?.split(':').at(-1));

let people = 0;
async function signup(): Promise<{ token: string; email: string; password: string; workspaceId: string }> {
  const email = `topology.${process.pid}.${Date.now()}.${people++}@example.com`;
  const password = 'correct horse battery staple';
  const body = await api('/api/v1/users/signup', {
    method: 'POST',
    status: 201,
    json: { email, password, name: 'Topology Owner', workspace_name: 'Topology Inc' },
  });
  return { token: body.login.access_token, email, password, workspaceId: body.workspace.id };
}

const createKey = (token: string, name: string) =>
  api<{ id: string; key: string }>('/api/v1/api-keys', { method: 'POST', token, status: 201, json: { name } });

async function mcpSession(credential: string, mode: 'legacy' | 'auto'): Promise<AgentSession> {
  const client = new Client({ name: 'topology', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${cluster.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${credential}` } },
    }),
  );
  expect(client.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');
  return { callTool: (name, args) => client.callTool({ name, arguments: args }) as never, close: () => client.close() };
}

/** The human approves over the REST API with their login (agents cannot approve). */
const approveOverHttp: ScenarioWorld['approve'] = async (url, email, password) => {
  expect(url.startsWith(`${cluster.url}/`), url).toBe(true);
  const { access_token: token } = await api('/api/v1/users/login', { method: 'POST', json: { email, password } });
  const pending = (await api('/api/v1/sequences', { token })).data.find((s: any) => s.status === 'pending_approval');
  await api(`/api/v1/sequences/${pending.id}/approve`, { method: 'POST', token, json: { revision: pending.revision } });
};

async function until<T>(what: string, seconds: number, read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`gave up after ${seconds} s waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(skipped)(`two instances and two workers behind nginx (${skipped ?? 'PostgreSQL'})`, () => {
  for (const [era, mode] of [
    ['2026-07-28', 'auto'],
    ['2025-11-25', 'legacy'],
  ] as const) {
    it(`runs the seed's agent run over MCP through nginx (${era} era)`, { timeout: 120_000 }, async () => {
      const bootstrap = await createKey((await signup()).token, 'bootstrap');
      const report = await runAgentScenario(
        {
          siteUrl: site.url,
          connect: (credential) => mcpSession(credential, mode),
          afterSignup: reconnectOverHttp((token) => mcpSession(token, mode)),
          consent: async (url, account) => expect((await playHuman(url, { email: account })).status).toBe(200),
          approve: approveOverHttp,
          delivered: sandboxMailbox,
        },
        bootstrap.key,
      );
      console.log(`agent run through nginx (${era}): ${report.steps.map((s) => `${s.name} ${s.ms}`).join(', ')}`);
    });
  }

  it('refuses a revoked key on the next request, on both instances', async () => {
    const owner = await signup();
    const key = await createKey(owner.token, 'to revoke');
    const read = () =>
      fetch(`${cluster.url}/api/v1/leads?limit=1`, { headers: { authorization: `Bearer ${key.key}` } });
    // Both instances have authenticated the key (and cached it) before it is revoked.
    const before = await Promise.all([read(), read(), read(), read()]);
    expect(before.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(before.map(answeredBy))).toEqual(new Set(cluster.instancePorts));
    const revoked = await fetch(`${cluster.url}/api/v1/api-keys/${key.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(revoked.status).toBe(200);
    const after: Response[] = [];
    for (let i = 0; i < 6; i++) after.push(await read());
    expect(after.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(new Set(after.map(answeredBy))).toEqual(new Set(cluster.instancePorts));
    console.log(`revoked on :${answeredBy(revoked)}, the next request answered 401 on :${answeredBy(after[0])}`);
  });

  it('shares one credential’s rate limit between the instances', async () => {
    const owner = await signup();
    const key = await createKey(owner.token, 'limited');
    const read = () =>
      fetch(`${cluster.url}/api/v1/leads?limit=1`, { headers: { authorization: `Bearer ${key.key}` } });
    const counted = async () =>
      (
        await cluster.sql<{ count: number }[]>`
          select count from rate_limit_counters where bucket = ${`key:${key.id}`}`
      )[0]?.count ?? 0;
    // Rounds of 50 requests, alternating between the instances; between rounds every instance has pushed its
    // count and read the total back, so no round can overshoot: each instance alone admits half of the limit.
    const admitted = new Map<number, number>();
    for (let round = 0; round < RATE_LIMIT / 50; round++) {
      for (let i = 0; i < 50; i++) {
        const res = await read();
        expect(res.status).toBe(200);
        admitted.set(answeredBy(res), (admitted.get(answeredBy(res)) ?? 0) + 1);
      }
      await until('the counts to reach the database', 20, counted, (n) => n === (round + 1) * 50);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect([...admitted.values()]).toEqual([RATE_LIMIT / 2, RATE_LIMIT / 2]);
    const over = await Promise.all([read(), read(), read(), read()]);
    expect(over.map((r) => r.status)).toEqual([429, 429, 429, 429]);
    expect(new Set(over.map(answeredBy))).toEqual(new Set(cluster.instancePorts));
    expect(over[0].headers.get('ratelimit')).toMatch(/;r=0;/);
  });

  it(`sends ${LEADS} messages once each while a worker is killed and an instance restarted, and delivers their webhooks`, {
    timeout: 240_000,
  }, async () => {
    const owner = await signup();
    const { token } = owner;
    receiver = await startReceiver();
    const endpoint = await api('/api/v1/webhook-endpoints', {
      method: 'POST',
      token,
      status: 201,
      json: { url: receiver.url, event_types: ['lead.stage_changed', 'email_sequence.completed'] },
    });
    receiver.useSecret(endpoint.secret);
    await api('/api/v1/workspace/settings', {
      method: 'PATCH',
      token,
      json: { postal_address: 'Topology Inc, 1 Main St, Springfield' },
    });
    const mailboxes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const started = await api('/api/v1/connectors/oauth', {
        method: 'POST',
        token,
        status: 201,
        json: { provider: 'gmail', capabilities: ['read_replies'] },
      });
      expect(
        (await playHuman(started.authorization_url, { email: `box${i}.${process.pid}@sandbox.example` })).status,
      ).toBe(200);
      mailboxes.push(started.id);
    }
    const rows = Array.from({ length: LEADS }, (_, i) => ({ email: `lead${i}@example.com`, first_name: `L${i}` }));
    const imported = (await api('/api/v1/leads/imports', { method: 'POST', token, json: { rows } })).import;
    expect(imported.counts).toMatchObject({ total: LEADS, created: LEADS });
    const sequence = await api('/api/v1/sequences', {
      method: 'POST',
      token,
      status: 201,
      json: {
        name: 'A thousand',
        sender_connector_ids: mailboxes,
        schedule: {
          timezone: 'UTC',
          days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
          start_hour: 0,
          end_hour: 24,
        },
        daily_limit: 2000,
        steps: [{ subject: 'Hello {{first_name}}', body: 'Hi {{first_name}}, one message, once.' }],
      },
    });
    const submitted = await api(`/api/v1/sequences/${sequence.id}/submit`, { method: 'POST', token });
    await api(`/api/v1/sequences/${sequence.id}/approve`, {
      method: 'POST',
      token,
      json: { revision: submitted.revision },
    });
    const statuses = async () =>
      Object.fromEntries(
        (
          await cluster.sql<{ status: string; n: number }[]>`
              select status, count(*)::int as n from sequence_messages where sequence_id = ${sequence.id} group by status`
        ).map((r) => [r.status, r.n]),
      ) as Record<string, number>;
    const launched = await api(`/api/v1/sequences/${sequence.id}/launch`, {
      method: 'POST',
      token,
      json: { enroll: { import_id: imported.id } },
    });
    expect(launched.enrollment.counts).toMatchObject({ enrolled: LEADS });

    // Mid-way: one worker dies without a word, and one instance is restarted (drained, as a deploy does).
    const midway = await until('a third of the messages', 90, statuses, (s) => (s.sent ?? 0) >= LEADS / 3);
    await cluster.workers[0].kill();
    await cluster.restartInstance(0);
    const settled = await until(
      'every message sent or uncertain',
      150,
      statuses,
      (s) => (s.sent ?? 0) + (s.uncertain ?? 0) === LEADS,
    );
    console.log(`sent ${midway.sent} before the kill; at the end ${JSON.stringify(settled)}`);

    // Never twice: one message per enrollment and step, and one delivery per recipient in the sandbox mailbox.
    const repeated = await cluster.sql`
        select enrollment_id, step, count(*)::int as n from sequence_messages where sequence_id = ${sequence.id}
        group by enrollment_id, step having count(*) <> 1`;
    expect(repeated).toEqual([]);
    const delivered = await cluster.sql<{ to_header: string; n: number }[]>`
        select to_header, count(*)::int as n from sandbox_messages where workspace_id = ${owner.workspaceId}
        group by to_header`;
    expect(delivered.filter((d) => d.n !== 1)).toEqual([]);
    // A message in flight when its worker died is uncertain, never retried (send-message.ts): at most the
    // killed worker's two mailbox jobs each had one in flight. Every other message went.
    expect(settled.uncertain ?? 0).toBeLessThanOrEqual(2);
    expect(delivered.length).toBeGreaterThanOrEqual(settled.sent);
    expect(delivered.length).toBeLessThanOrEqual(LEADS);

    // Webhooks: every lead.stage_changed (one per sent message) reaches the receiver; by webhook-id, once.
    const events = await cluster.sql<{ id: string }[]>`
        select id from events where workspace_id = ${owner.workspaceId} and type = 'lead.stage_changed'`;
    expect(events.length).toBe(settled.sent);
    const ids = () =>
      receiver!.received.filter((r) => r.verified?.type === 'lead.stage_changed').map((r) => r.headers['webhook-id']);
    await until(
      'every event at the receiver',
      60,
      async () => new Set(ids()).size,
      (n) => n >= events.length,
    );
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(new Set(ids())).toEqual(new Set(events.map((e) => e.id)));
    const twice = ids().length - new Set(ids()).size;
    console.log(`webhooks: ${ids().length} deliveries of ${events.length} events (${twice} repeated)`);
    expect(twice).toBe(0);
  });
});
