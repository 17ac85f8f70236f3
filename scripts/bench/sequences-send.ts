// Sequence sending, end to end: `messages` leads enrolled in one launched sequence (one step, always in its
// window, spacing 0, the mailbox cap out of the way), then timed from "due" to every message recorded at a
// fake Gmail over real HTTP (test/handlers/connectors/fake-google.ts, counting only), running what the jobs run
// (dispatchDue, then sendFromMailbox) in this process. Baseline on the same database: a plain insert then
// update of one row per message, one message at a time. The service reaches the database (PostgreSQL, or
// PGlite's socket) through a metering proxy (sequences-proxy.ts), so the database cost per message (round
// trips, counted exactly at the wire; time the connections waited) is measured for both.
import { randomBytes } from 'node:crypto';
import { freePort } from '../../test/helpers/prism.ts';
import { serve } from '@hono/node-server';
import postgres from 'postgres';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/connection.ts';
import { migrate } from '../../src/db/migrate.ts';
import { dispatchDue, sendFromMailbox } from '../../src/handlers/sequences/sender.ts';
import { createServices, type Services } from '../../src/services.ts';
import { startFakeGoogle, type FakeGoogle } from '../../test/handlers/connectors/fake-google.ts';
import { benchJobsSchema, openBenchDatabase } from './bench-database.ts';
import { createCredentials } from './credentials.ts';
import { startDbMeter, type DbMeter } from './sequences-proxy.ts';

export interface DbCost {
  roundTrips: number;
  busyMs: number;
}

export interface SendResult {
  messages: number;
  sendMs: number;
  /** CPU time of this process while sending: the service, the fake Gmail and the metering proxy together. */
  sendCpuMs: number;
  plainMs: number;
  /** What sending and the baseline cost the database, measured at the wire (sequences-proxy.ts). */
  sendDb: DbCost;
  plainDb: DbCost;
}

const ALWAYS = {
  timezone: 'UTC',
  days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  start_hour: 0,
  end_hour: 24,
};

async function call(url: string, token: string, method: string, body?: unknown): Promise<any> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** A workspace with a live Gmail connector (the fake) that may read replies, `n` leads and one launched one-step sequence enrolling them all. */
async function prepare(base: string, google: FakeGoogle, direct: Database, n: number): Promise<void> {
  const { token, workspaceId } = await createCredentials(base);
  // The sequence stops on replies (the default), so its sender must be allowed to see them, as a user's would.
  const started = await call(`${base}/api/v1/connectors/oauth`, token, 'POST', {
    provider: 'gmail',
    capabilities: ['read_replies'],
  });
  await fetch(await google.consent(started.authorization_url, { email: 'bench@gmail.example' }));
  await call(`${base}/api/v1/workspace/settings`, token, 'PATCH', {
    postal_address: 'Acme Ltd, 1 Main St, Springfield',
  });
  await direct.sql`
    insert into leads (id, workspace_id, email, first_name, company, tags, custom_fields, status, created_at, updated_at)
    select 'lead_bench_' || i, ${workspaceId}, 'lead' || i || '@bench.example', 'P' || i, 'Co ' || i, array['bench'], '{"plan":"pro"}'::jsonb, 'active', now(), now()
    from generate_series(1, ${n}::int) as i`;
  const step = {
    subject: 'Hello {{first_name | "there"}} at {{company}}',
    body: 'Hi {{first_name | "there"}},\n\nWe help **{{company}}** on the *{{custom.plan}}* plan.',
  };
  const seq = await call(`${base}/api/v1/sequences`, token, 'POST', {
    name: 'Bench',
    sender_connector_id: started.id,
    schedule: ALWAYS,
    daily_limit: 2000,
    steps: [step],
  });
  const submitted = await call(`${base}/api/v1/sequences/${seq.id}/submit`, token, 'POST');
  await call(`${base}/api/v1/sequences/${seq.id}/approve`, token, 'POST', { revision: submitted.revision });
  // The API caps daily_limit at 2,000; the bench wants every message due at once.
  await direct.sql`update sequences set daily_limit = ${n} where id = ${seq.id}`;
  const launched = await call(`${base}/api/v1/sequences/${seq.id}/launch`, token, 'POST', {
    enroll: { filter: { tag: 'bench' } },
  });
  if (launched.enrollment.counts.enrolled !== n)
    throw new Error(`enrolled ${launched.enrollment.counts.enrolled} of ${n} leads`);
}

/** Runs the dispatcher and the mailbox's sender until the fake Gmail has every message. */
async function sendAll(services: Services, google: FakeGoogle, n: number): Promise<void> {
  while (google.sendCount < n) {
    const mailboxes = await dispatchDue(services.deps);
    if (mailboxes.length === 0) throw new Error(`nothing left to dispatch after ${google.sendCount} of ${n} messages`);
    for (const mailbox of mailboxes) await sendFromMailbox(services.deps, mailbox);
  }
}

/** The baseline: one autocommitted insert and one update per message, metered without the table's create and drop. */
async function plainInsertUpdate(db: Database, meter: DbMeter, n: number): Promise<{ ms: number; cost: DbCost }> {
  const table = `bench_plain_messages_${randomBytes(4).toString('hex')}`;
  await db.sql.unsafe(
    `create table ${table} (id text primary key, enrollment_id text not null, step int not null, status text not null, provider_message_id text, created_at timestamptz not null, sent_at timestamptz)`,
  );
  try {
    const before = meter.read();
    const started = performance.now();
    for (let i = 0; i < n; i++) {
      await db.sql.unsafe(
        `insert into ${table} (id, enrollment_id, step, status, created_at) values ($1, $2, 1, 'scheduled', now())`,
        [`m${i}`, `e${i}`],
      );
      await db.sql.unsafe(
        `update ${table} set status = 'sent', provider_message_id = $2, sent_at = now() where id = $1`,
        [`m${i}`, `p${i}`],
      );
    }
    return { ms: performance.now() - started, cost: delta(meter, before) };
  } finally {
    await db.sql.unsafe(`drop table ${table}`);
  }
}

/**
 * The service's own connection, through the metering proxy: to PostgreSQL with the bench schema's search
 * path, or to embedded PGlite's socket with one connection, as the service itself holds it (connection.ts).
 */
async function serviceDatabase(
  bench: Database,
  databaseUrl: string | undefined,
): Promise<{ db: Database; meter: DbMeter }> {
  const [{ search_path }] = await bench.sql<{ search_path: string }[]>`show search_path`;
  const connectionString = databaseUrl ?? bench.connectionString;
  if (!connectionString) throw new Error('the bench database has no connection string');
  const meter = await startDbMeter(connectionString);
  const sql = postgres(meter.url, {
    max: bench.kind === 'pglite' ? 1 : 10,
    onnotice: () => {},
    connection: { search_path },
  });
  // pg-boss connects with connectionString directly: its polling is not the scheduler's cost.
  const db: Database = { sql, kind: bench.kind, connectionString, close: () => sql.end() };
  return { db, meter };
}

const delta = (meter: DbMeter, before: DbCost): DbCost => {
  const now = meter.read();
  return { roundTrips: now.roundTrips - before.roundTrips, busyMs: now.busyMs - before.busyMs };
};

export async function measureSending(
  databaseUrl: string | undefined,
  messages: number,
  sendsInFlight: number,
  logLevel: string,
  progress: (line: string) => void,
): Promise<SendResult> {
  const bench = await openBenchDatabase(databaseUrl);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const google = await startFakeGoogle({ redirectUri: `${base}/oauth/callback`, recordSent: false });
  const cleanup: Array<() => Promise<unknown>> = [() => bench.close(), () => google.close()];
  try {
    await migrate(bench.sql);
    const { db, meter } = await serviceDatabase(bench, databaseUrl);
    cleanup.unshift(
      () => meter.close(),
      () => db.close(),
    );
    const config = loadConfig({
      LOG_LEVEL: logLevel,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: base,
      RATE_LIMIT_PER_CREDENTIAL: '1000000000',
      RATE_LIMIT_PER_ADDRESS: '1000000000',
      TOKEN_ENCRYPTION_KEY: `bench:${randomBytes(32).toString('base64')}`,
      ...google.env(),
      SEQUENCE_SEND_SPACING_MS: '0',
      SEQUENCE_SENDS_IN_FLIGHT: String(sendsInFlight),
      SEQUENCE_CLAIM_BATCH: '20',
      SEQUENCE_MAILBOX_DAILY_CAP: String(10 * messages),
    });
    const jobsSchema = benchJobsSchema(bench, 'seq');
    cleanup.unshift(jobsSchema.drop);
    const services = await createServices({
      db,
      config,
      jobsSchema: jobsSchema.name,
      argon2Params: { memoryCost: 1024, timeCost: 1, parallelism: 1, outputLen: 32 },
    });
    cleanup.unshift(() => services.close());
    // Jobs are queued (a launch kicks the dispatcher) but not run: this process runs what they would.
    await services.startJobs({ work: false });
    const server = serve({ fetch: createApp(services.deps).fetch, port, hostname: '127.0.0.1' });
    cleanup.unshift(() => new Promise<void>((resolve) => server.close(() => resolve())));
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));

    progress(`sequences on ${db.kind}: enrolling ${messages} leads`);
    await prepare(base, google, bench, messages);
    progress(`sequences on ${db.kind}: sending ${messages} messages`);
    const before = meter.read();
    const cpu = process.cpuUsage();
    const started = performance.now();
    await sendAll(services, google, messages);
    const sendMs = performance.now() - started;
    const { user, system } = process.cpuUsage(cpu);
    const sendDb = delta(meter, before);
    const [{ sent }] = await bench.sql<
      { sent: number }[]
    >`select count(*)::int as sent from sequence_messages where status = 'sent'`;
    if (sent !== messages || google.sendCount !== messages)
      throw new Error(`${sent} rows sent and ${google.sendCount} recorded at Gmail, of ${messages}`);

    progress(`sequences on ${db.kind}: plain insert + update of ${messages} rows`);
    const plain = await plainInsertUpdate(db, meter, messages);
    return { messages, sendMs, sendCpuMs: (user + system) / 1000, plainMs: plain.ms, sendDb, plainDb: plain.cost };
  } finally {
    for (const step of cleanup) await step().catch(() => undefined);
  }
}
