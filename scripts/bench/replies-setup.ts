// The stage of the reply rows: the real service (createServices + createApp on 127.0.0.1, jobs queued but
// run by this process) with a live Gmail connector that may send and read replies (read_replies: the
// gmail.metadata scope) against the strict fake Google over real HTTP, and one launched two-step sequence
// whose first step went to every lead, so each lead has one thread of ours at the fake. Step 2 waits a day;
// the latency rows make it due one enrollment at a time. A first sync has stored the mailbox's history id.
import { randomBytes } from 'node:crypto';
import { serve } from '@hono/node-server';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { migrate } from '../../src/db/migrate.ts';
import { findConnector, type ConnectorRow } from '../../src/handlers/connectors/connectors-data.ts';
import { withAccessToken } from '../../src/handlers/connectors/google/gmail-token-call.ts';
import { syncMailbox } from '../../src/handlers/replies/sync-mailbox.ts';
import { dispatchDue, sendFromMailbox } from '../../src/handlers/sequences/sender.ts';
import { createServices, type Services } from '../../src/services.ts';
import { startFakeGoogle, type FakeGoogle } from '../../test/handlers/connectors/fake-google.ts';
import { freePort } from '../../test/helpers/prism.ts';
import { benchJobsSchema, openBenchDatabase, type BenchDatabase } from './bench-database.ts';
import { createCredentials } from './credentials.ts';

export const ACCOUNT = 'bench@gmail.example';

/** One lead written to once: its enrollment, and the thread and Message-ID a reply answers. */
export interface Conversation {
  leadEmail: string;
  enrollmentId: string;
  threadId: string;
  messageId: string;
  subject: string;
}

export interface RepliesStage {
  db: BenchDatabase;
  services: Services;
  google: FakeGoogle;
  workspaceId: string;
  connector: ConnectorRow;
  conversations: Conversation[];
  /** A Gmail access token of the connector, for the plain-fetch baselines. */
  accessToken: string;
  close(): Promise<void>;
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

/** Connects the mailbox, enrolls `leads` leads (each at its own company) and returns the connector id. */
async function launch(base: string, google: FakeGoogle, db: BenchDatabase, leads: number) {
  const { token, workspaceId } = await createCredentials(base);
  const started = await call(`${base}/api/v1/connectors/oauth`, token, 'POST', {
    provider: 'gmail',
    capabilities: ['send', 'read_replies'],
  });
  await fetch(await google.consent(started.authorization_url, { email: ACCOUNT }));
  await call(`${base}/api/v1/workspace/settings`, token, 'PATCH', {
    postal_address: 'Acme Ltd, 1 Main St, Springfield',
  });
  await db.sql`
    insert into leads (id, workspace_id, email, first_name, company, tags, custom_fields, status, created_at, updated_at)
    select 'lead_reply_' || i, ${workspaceId}, 'lead' || i || '@co' || i || '.example', 'P' || i, 'Co ' || i,
      array['bench'], '{}'::jsonb, 'active', now(), now()
    from generate_series(1, ${leads}::int) as i`;
  const seq = await call(`${base}/api/v1/sequences`, token, 'POST', {
    name: 'Bench replies',
    sender_connector_id: started.id,
    schedule: ALWAYS,
    daily_limit: 2000,
    steps: [
      { subject: 'Hello {{first_name}}', body: 'Hi {{first_name}}, shall we talk?' },
      { wait_days: 1, body: 'Hi {{first_name}}, following up.' },
    ],
  });
  const submitted = await call(`${base}/api/v1/sequences/${seq.id}/submit`, token, 'POST');
  await call(`${base}/api/v1/sequences/${seq.id}/approve`, token, 'POST', { revision: submitted.revision });
  const launched = await call(`${base}/api/v1/sequences/${seq.id}/launch`, token, 'POST', {
    enroll: { filter: { tag: 'bench' } },
  });
  if (launched.enrollment.counts.enrolled !== leads)
    throw new Error(`enrolled ${launched.enrollment.counts.enrolled} of ${leads} leads`);
  return { workspaceId, connectorId: started.id as string };
}

async function sendFirstSteps(services: Services, google: FakeGoogle, n: number): Promise<void> {
  while (google.sendCount < n) {
    const mailboxes = await dispatchDue(services.deps);
    if (mailboxes.length === 0) throw new Error(`nothing left to dispatch after ${google.sendCount} of ${n} messages`);
    for (const mailbox of mailboxes) await sendFromMailbox(services.deps, mailbox);
  }
}

export async function openRepliesStage(
  databaseUrl: string | undefined,
  leads: number,
  logLevel: string,
  progress: (line: string) => void,
): Promise<RepliesStage> {
  const db = await openBenchDatabase(databaseUrl);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const google = await startFakeGoogle({ redirectUri: `${base}/oauth/callback` });
  const cleanup: Array<() => Promise<unknown>> = [() => db.close(), () => google.close()];
  const close = async () => {
    for (const step of cleanup) await step().catch(() => undefined);
  };
  try {
    await migrate(db.sql);
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
      SEQUENCE_MAILBOX_DAILY_CAP: String(10 * leads),
    });
    const jobsSchema = benchJobsSchema(db, 'rep');
    cleanup.unshift(jobsSchema.drop);
    const services = await createServices({
      db,
      config,
      jobsSchema: jobsSchema.name,
      argon2Params: { memoryCost: 1024, timeCost: 1, parallelism: 1, outputLen: 32 },
    });
    cleanup.unshift(() => services.close());
    await services.startJobs({ work: false });
    const server = serve({ fetch: createApp(services.deps).fetch, port, hostname: '127.0.0.1' });
    cleanup.unshift(() => new Promise<void>((resolve) => server.close(() => resolve())));
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));

    const { workspaceId, connectorId } = await launch(base, google, db, leads);
    progress(`replies on ${db.kind}: sending the first step to ${leads} leads`);
    await sendFirstSteps(services, google, leads);
    const connector = await findConnector(db.sql, workspaceId, connectorId);
    if (!connector) throw new Error('the connector is gone');
    progress(`replies on ${db.kind}: the first sync`);
    // The first sync reads the last 30 days (our own sends, kept as ignored) and stores the history id.
    if ((await syncMailbox(services.deps, workspaceId, connectorId)) !== 'synced') throw new Error('first sync failed');
    const token = await withAccessToken(services.deps, connector, async (t) => t);
    if (token.kind !== 'answered') throw new Error(`no access token: ${token.kind}`);
    const conversations = await db.sql<Conversation[]>`
      select l.email as "leadEmail", m.enrollment_id as "enrollmentId", m.thread_id as "threadId",
        m.message_id_header as "messageId", m.subject
      from sequence_messages m join leads l on l.id = m.lead_id
      where m.workspace_id = ${workspaceId} and m.status = 'sent' order by m.lead_id`;
    if (conversations.some((c) => !c.threadId || !c.messageId)) throw new Error('a sent message has no thread');
    return { db, services, google, workspaceId, connector, conversations, accessToken: token.value, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A lead's answer in its thread, as Gmail files it: a human reply, or an out-of-office auto-reply. */
export function deliverReply(google: FakeGoogle, c: Conversation, kind: 'reply' | 'auto_reply', n = 0) {
  return google.deliver({
    to: ACCOUNT,
    from: c.leadEmail,
    subject: `Re: ${c.subject}`,
    threadId: c.threadId,
    headers: {
      'In-Reply-To': c.messageId,
      References: c.messageId,
      ...(kind === 'auto_reply' && { 'Auto-Submitted': 'auto-replied' }),
    },
    text: kind === 'auto_reply' ? 'I am out of the office until Monday.' : `Sounds good, let us talk (${n}).`,
  });
}

export async function enrollmentStatus(stage: RepliesStage, enrollmentId: string): Promise<string> {
  const [row] = await stage.db.sql<{ status: string }[]>`
    select status from sequence_enrollments where workspace_id = ${stage.workspaceId} and id = ${enrollmentId}`;
  return row?.status ?? 'missing';
}
