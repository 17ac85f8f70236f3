// A lead import under faults (issue 13): cancel_operation stops it between batches and what was written
// stays, counted; a retried Idempotency-Key replays a started import instead of starting another, over
// HTTP and MCP; a worker process killed with SIGKILL in the middle of an import, and a new one started,
// finish it with every row written and counted once and one lead_import.completed event, also when it
// was killed with two batches in flight (PostgreSQL); a job that loses its lease half-way through a download
// from a server that ends the body by closing the connection aborts it, and its retry imports every row once.
import { randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from 'postgres';
import { BATCH_SIZE } from '../../../src/handlers/leads/import-engine.ts';
import { retrySilentOperations } from '../../../src/handlers/operations/sweep-stale.ts';
import { createTestApp, listen, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { pgliteSite, postgresSite, type CrashSite } from './crash-site.ts';
import { expectedCounts, leadsCsv, serveHeldCsv, type HeldCsvServer, type LeadsCsv } from './held-csv.ts';
import { serveThenClose } from './closing-csv-server.ts';
import { spawnImportWorker, type ImportWorker } from './worker-child.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);
const terminal = ['succeeded', 'failed', 'cancelled'];

const servers: HeldCsvServer[] = [];
const workers: ImportWorker[] = [];
async function stopAll(): Promise<void> {
  for (const w of workers.splice(0)) {
    if (w.process.exitCode === null) w.process.kill('SIGKILL');
    await w.exited;
  }
  for (const s of servers.splice(0)) await s.close();
}
afterEach(stopAll);

async function heldCsv(domain: string, rows: number, holdAfter: number) {
  const csv = leadsCsv(domain, rows);
  const server = await serveHeldCsv(csv, holdAfter);
  servers.push(server);
  return { csv, server };
}

/** Re-reads until `done` accepts the value; fails with the last value after `seconds`. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, seconds = 90): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still not there after ${seconds} s: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What the database holds for one import: its checkpoint, its leads, its errors and its completion events. */
async function stored(sql: Sql, workspaceId: string, importId: string) {
  const [row] = await sql`
    select i.rows_done, i.status,
      (select count(*)::int from leads l where l.workspace_id = i.workspace_id and l.source_import_id = i.id) as leads,
      (select count(distinct l.email)::int from leads l where l.workspace_id = i.workspace_id and l.source_import_id = i.id) as distinct_emails,
      (select count(*)::int from leads l where l.workspace_id = i.workspace_id) as workspace_leads,
      (select count(distinct e.row)::int from lead_import_errors e where e.import_id = i.id) as error_rows,
      (select count(*)::int from events v where v.workspace_id = i.workspace_id and v.type = 'lead_import.completed' and v.data->>'id' = i.id) as completed_events
    from lead_imports i where i.id = ${importId} and i.workspace_id = ${workspaceId}`;
  return row;
}

/** Starts an import of `url` as `owner`; returns its operation. */
async function startImport(t: TestApp, owner: SignupResult, url: string): Promise<any> {
  const res = await t.request('/api/v1/leads/imports', { method: 'POST', token: owner.token, json: { csv_url: url } });
  expect(res.status).toBe(202);
  return res.json();
}

/** What `stored` reads once all of `csv` is imported into a workspace without its addresses: every row once. */
function wholeImport(csv: LeadsCsv) {
  const counts = expectedCounts(csv);
  return {
    rows_done: csv.emails.length,
    status: 'completed_with_errors',
    leads: counts.created,
    distinct_emails: counts.created,
    workspace_leads: counts.created,
    error_rows: counts.invalid,
    completed_events: 1,
  };
}

describe('bulk_import_leads under faults, jobs in the service', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    t = await createTestApp({ jobs: 'work', env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
    server = await listen(t.app);
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  const post = (owner: SignupResult, body: unknown, headers: Record<string, string> = {}) =>
    t.request('/api/v1/leads/imports', { method: 'POST', token: owner.token, json: body, headers });
  const getJson = async (owner: SignupResult, path: string): Promise<any> =>
    (await t.request(path, { token: owner.token })).json();
  const follow = (owner: SignupResult, id: string) =>
    until(
      () => getJson(owner, `/api/v1/operations/${id}?wait_seconds=20`),
      (op) => terminal.includes(op.status),
    );
  const importCount = async (owner: SignupResult) =>
    (await t.db.sql`select count(*)::int as n from lead_imports where workspace_id = ${owner.workspaceId}`)[0]
      .n as number;

  it('stops an import between batches on cancel_operation, keeping the rows written and counting them', async () => {
    const owner = await t.signup();
    // Batch 1 can be written; batch 2 cannot be read whole before the cancel is recorded and the rest sent.
    const { csv, server: files } = await heldCsv('cancel.example', 3 * BATCH_SIZE, BATCH_SIZE + BATCH_SIZE / 2);
    const res = await post(owner, { csv_url: files.url });
    expect(res.status).toBe(202);
    const op = await res.json();
    const importId = op.resource.id as string;
    const written = await until(
      () => getJson(owner, `/api/v1/leads/imports/${importId}`),
      (imp) => imp.counts.total >= BATCH_SIZE || imp.finished_at !== null,
    );
    expect(written.counts.total).toBe(BATCH_SIZE);
    const cancel = await t.request(`/api/v1/operations/${op.id}/cancel`, { method: 'POST', token: owner.token });
    expect(cancel.status).toBe(200);
    expect((await cancel.json()).cancel_requested_at).not.toBeNull();
    files.release();

    expect((await follow(owner, op.id)).status).toBe('cancelled');
    const imp = await getJson(owner, `/api/v1/leads/imports/${importId}`);
    const counts = expectedCounts(csv, BATCH_SIZE);
    expect(imp).toMatchObject({ status: 'cancelled', counts });
    expect(imp.finished_at).not.toBeNull();
    expect(await stored(t.db.sql, owner.workspaceId, importId)).toEqual({
      rows_done: BATCH_SIZE,
      status: 'cancelled',
      leads: counts.created + counts.updated,
      distinct_emails: counts.created,
      workspace_leads: counts.created,
      error_rows: counts.invalid,
      completed_events: 0,
    });
    expect(counts.created + counts.updated + counts.skipped_duplicate + counts.invalid).toBe(counts.total);
  });

  it('replays a started import for a retried Idempotency-Key, leaving one import with each lead once', async () => {
    const owner = await t.signup();
    const rows = Array.from({ length: 1_500 }, (_, i) => ({ email: `r${i}@replay.example` }));
    const headers = { 'Idempotency-Key': 'import-started-once' };
    const first = await post(owner, { rows }, headers);
    expect(first.status).toBe(202);
    const op = await first.json();
    const again = await post(owner, { rows }, headers);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).id).toBe(op.id);

    expect((await follow(owner, op.id)).status).toBe('succeeded');
    const late = await post(owner, { rows }, headers);
    expect(late.headers.get('idempotent-replayed')).toBe('true');
    expect((await late.json()).id).toBe(op.id);
    expect(await importCount(owner)).toBe(1);
    expect(await stored(t.db.sql, owner.workspaceId, op.resource.id)).toMatchObject({
      rows_done: 1_500,
      leads: 1_500,
      workspace_leads: 1_500,
      completed_events: 1,
    });
  });

  it('replays bulk_import_leads over MCP for a retried idempotency_key and stops it with cancel_operation', async () => {
    const owner = await t.signup();
    const { csv, server: files } = await heldCsv('mcp.example', 3 * BATCH_SIZE, BATCH_SIZE + BATCH_SIZE / 2);
    const client = new Client({ name: 'import-faults-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${owner.token}` } },
      }),
    );
    try {
      const call = async (name: string, args: Record<string, unknown>): Promise<any> => {
        const result = (await client.callTool({ name, arguments: args })) as {
          isError?: boolean;
          structuredContent?: unknown;
          content: { text: string }[];
        };
        expect(result.isError, result.content[0].text).toBeFalsy();
        // bulk_import_leads answers in two shapes (200 or 202), so it has no outputSchema: its answer is the text.
        return result.structuredContent ?? JSON.parse(result.content[0].text);
      };
      const op = await call('bulk_import_leads', { csv_url: files.url, idempotency_key: 'mcp-import-once' });
      expect(op.status).toMatch(/^(queued|running)$/);
      expect((await call('bulk_import_leads', { csv_url: files.url, idempotency_key: 'mcp-import-once' })).id).toBe(
        op.id,
      );
      const importId = op.resource.id as string;
      await until(
        () => call('get_lead_import', { import_id: importId }),
        (imp) => imp.counts.total >= BATCH_SIZE,
      );
      expect((await call('cancel_operation', { operation_id: op.id })).cancel_requested_at).not.toBeNull();
      files.release();

      const ended = await until(
        () => call('get_operation', { operation_id: op.id, wait_seconds: 20 }),
        (o) => terminal.includes(o.status),
      );
      expect(ended.status).toBe('cancelled');
      expect(await call('get_lead_import', { import_id: importId })).toMatchObject({
        status: 'cancelled',
        counts: expectedCounts(csv, BATCH_SIZE),
      });
      expect(await importCount(owner)).toBe(1);
    } finally {
      await client.close();
    }
  });
});

async function killMidImportAndRestart(site: CrashSite): Promise<void> {
  const rows = 4 * BATCH_SIZE;
  // The first worker can write two batches, then waits for rows the server holds back until it is killed.
  const { csv, server: files } = await heldCsv('crash.example', rows, 2 * BATCH_SIZE + 2_000);
  const { owner, op } = await site.withApp(async (t) => {
    const owner = await t.signup();
    return { owner, op: await startImport(t, owner, files.url) };
  });
  const importId = op.resource.id as string;
  const env = { ...site.workerEnv, IMPORT_ID: importId, IMPORT_OPERATION_ID: op.id };
  const start = (): ImportWorker => {
    const w = spawnImportWorker(env);
    workers.push(w);
    return w;
  };

  const first = start();
  await first.line((l) => l === `rows_done ${2 * BATCH_SIZE}`);
  first.process.kill('SIGKILL');
  await first.exited;
  // The killed worker's heartbeat stops; the recurring sweep (here run at once, with a 1 s silence
  // threshold instead of its default 120 s) fails its still-active job so pg-boss retries it.
  await site.withApp(async (t) => {
    const deadline = Date.now() + 60_000;
    let retried = 0;
    while (retried === 0 && Date.now() < deadline) {
      retried = await retrySilentOperations(t.deps, 1);
      if (retried === 0) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(retried).toBe(1);
    const [job] = await t.db.sql.unsafe(
      `select state from ${site.jobsSchema}.job where id = (select job_id::uuid from operations where id = $1)`,
      [op.id],
    );
    expect(job.state).toBe('retry');
  });
  const second = start();
  expect(await second.line((l) => l.startsWith('finished '))).toBe('finished succeeded');
  expect(await second.exited).toBe(0);

  await site.withApp(async (t) => {
    const counts = expectedCounts(csv);
    const imp = await (await t.request(`/api/v1/leads/imports/${importId}`, { token: owner.token })).json();
    expect(imp).toMatchObject({ status: 'completed_with_errors', counts });
    expect(counts.created + counts.updated + counts.skipped_duplicate + counts.invalid).toBe(rows);
    expect(await stored(t.db.sql, owner.workspaceId, importId)).toEqual(wholeImport(csv));
    const [event] = await t.db
      .sql`select data from events where workspace_id = ${owner.workspaceId} and type = 'lead_import.completed'`;
    expect(event.data).toMatchObject({ id: importId, counts });
    const [job] = await t.db.sql.unsafe(
      `select state, retry_count from ${site.jobsSchema}.job where id = (select job_id::uuid from operations where id = $1)`,
      [op.id],
    );
    expect(job.state).toBe('completed');
    expect(job.retry_count).toBeGreaterThanOrEqual(1);
  });
}

/**
 * Kills a worker while it writes two batches at once (PostgreSQL): the test holds the import's row, so
 * batch 1 waits to move the checkpoint while batch 2 has written its leads and waits for batch 1.
 * Neither committed, so both roll back with the dead connections; a new worker writes every row once.
 */
async function killWithTwoBatchesInFlight(site: CrashSite): Promise<void> {
  const rows = 4 * BATCH_SIZE;
  // No address repeats (a batch sharing one with the batch before it is written after that one), and
  // every 997th is broken, so batches carry row errors too.
  const emails = Array.from({ length: rows }, (_, i) =>
    i % 997 === 996 ? `broken-${i + 1}` : `p${i + 1}@two.example`,
  );
  const csv: LeadsCsv = { lines: ['email,first_name', ...emails.map((email, i) => `${email},P${i + 1}`)], emails };
  const files = await serveHeldCsv(csv, 3 * BATCH_SIZE);
  servers.push(files);
  const app = `import-two-in-flight-${randomBytes(4).toString('hex')}`;
  await site.withApp(async (t) => {
    const owner = await t.signup();
    const op = await startImport(t, owner, files.url);
    const importId = op.resource.id as string;
    const env = { ...site.workerEnv, IMPORT_ID: importId, IMPORT_OPERATION_ID: op.id, PGAPPNAME: app };
    const first = spawnImportWorker(env);
    workers.push(first);
    await until(
      async () => (await t.db.sql`select status from lead_imports where id = ${importId}`)[0].status as string,
      (status) => status === 'processing',
    );
    // Blocks the checkpoint's update (and nothing else: row errors take a key-share lock, which this allows).
    const lock = await t.db.sql.reserve();
    await lock`begin`;
    await lock`select 1 from lead_imports where id = ${importId} for no key update`;
    const inFlight = await until(
      async () =>
        (
          await t.db.sql<{ waiting: number; holding: number }[]>`
            select count(*) filter (where a.wait_event_type = 'Lock')::int as waiting,
              count(*) filter (where a.state = 'idle in transaction' and exists (
                select 1 from pg_locks l join pg_class c on c.oid = l.relation
                where l.pid = a.pid and c.relname = 'leads' and l.mode = 'RowExclusiveLock'))::int as holding
            from pg_stat_activity a where a.application_name = ${app}`
        )[0],
      (seen) => seen.waiting >= 1 && seen.holding >= 1,
    );
    expect(inFlight).toEqual({ waiting: 1, holding: 1 });
    first.process.kill('SIGKILL');
    await first.exited;
    await lock`commit`;
    lock.release();
    // Both batches rolled back with the dead worker's connections.
    expect(await stored(t.db.sql, owner.workspaceId, importId)).toMatchObject({
      rows_done: 0,
      leads: 0,
      error_rows: 0,
    });
    files.release();

    const deadline = Date.now() + 60_000;
    let retried = 0;
    while (retried === 0 && Date.now() < deadline) {
      retried = await retrySilentOperations(t.deps, 1);
      if (retried === 0) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(retried).toBe(1);
    const second = spawnImportWorker({ ...env, PGAPPNAME: `${app}-2` });
    workers.push(second);
    expect(await second.line((l) => l.startsWith('finished '))).toBe('finished succeeded');
    expect(await second.exited).toBe(0);

    const counts = expectedCounts(csv);
    const imp = await (await t.request(`/api/v1/leads/imports/${importId}`, { token: owner.token })).json();
    expect(imp).toMatchObject({ status: 'completed_with_errors', counts });
    expect(await stored(t.db.sql, owner.workspaceId, importId)).toEqual(wholeImport(csv));
  });
}

describe.runIf(onPostgres)(
  'a csv_url import whose job loses its lease half-way through the download, on PostgreSQL',
  () => {
    it('aborts that download, and the retry reads the file again and writes every row once', async () => {
      const t = await createTestApp({
        jobs: 'work',
        env: { OUTBOUND_ALLOW_PRIVATE: 'true', JOB_LEASE_SECONDS: '3' },
      });
      const csv = leadsCsv('lease.example', 3 * BATCH_SIZE);
      // HTTP/1.0 with no Content-Length: the body's end is the connection's. The first answer stops half-way through
      // batch 2, so batch 1 is written and the run waits on the download when its lease runs out.
      const held = csv.lines.slice(0, 1 + BATCH_SIZE + BATCH_SIZE / 2);
      const files = await serveThenClose(Buffer.from(`${csv.lines.join('\n')}\n`), {
        holdAfter: Buffer.byteLength(`${held.join('\n')}\n`),
      });
      try {
        const owner = await t.signup();
        const op = await startImport(t, owner, files.url);
        const importId = op.resource.id as string;
        await until(
          async () => (await stored(t.db.sql, owner.workspaceId, importId)).rows_done as number,
          (done) => done >= BATCH_SIZE,
        );
        // The worker's lease renewals wait behind this lock on the job's row, so the run's lease runs out.
        const [{ job_id: jobId }] = await t.db.sql`select job_id from operations where id = ${op.id}`;
        const lock = await t.db.sql.reserve();
        try {
          await lock`begin`;
          await lock.unsafe(`select 1 from ${t.jobsSchema}.job where id = $1 for update`, [jobId]);
          // The run is aborted, and its download with it: the server sees the client go.
          await until(
            async () => files.abandoned,
            (n) => n === 1,
            30,
          );
        } finally {
          // Whatever the wait did, the lock goes: the retry needs the job's row.
          await lock`rollback`.catch(() => {});
          lock.release();
        }
        const ended = await until(
          async () => (await t.request(`/api/v1/operations/${op.id}?wait_seconds=20`, { token: owner.token })).json(),
          (o: { status: string }) => terminal.includes(o.status),
        );
        expect(ended.status).toBe('succeeded');
        const counts = expectedCounts(csv);
        const imp = await (await t.request(`/api/v1/leads/imports/${importId}`, { token: owner.token })).json();
        expect(imp).toMatchObject({ status: 'completed_with_errors', counts });
        expect(await stored(t.db.sql, owner.workspaceId, importId)).toEqual(wholeImport(csv));
        expect({ answered: files.answered, abandoned: files.abandoned }).toEqual({ answered: 1, abandoned: 1 });
      } finally {
        await files.close();
        await t.close();
      }
    }, 240_000);
  },
);

/** Runs a crash scenario on a fresh site, then stops every worker it started and closes the site. */
async function onSite(open: () => Promise<CrashSite>, scenario: (site: CrashSite) => Promise<void>): Promise<void> {
  const site = await open();
  try {
    await scenario(site);
  } finally {
    await stopAll();
    await site.close();
  }
}

describe.runIf(onPostgres)('a lead import whose worker process is killed, on PostgreSQL', () => {
  it('finishes after SIGKILL and a new worker with every row written and counted once', async () => {
    await onSite(postgresSite, killMidImportAndRestart);
  }, 300_000);

  it('writes every row once after SIGKILL while two batches were in flight', async () => {
    await onSite(postgresSite, killWithTwoBatchesInFlight);
  }, 300_000);
});

describe.runIf(!onPostgres)(
  'a lead import whose worker process is killed, on PGlite with a data folder (one process at a time)',
  () => {
    it('finishes after SIGKILL and a new worker with every row written and counted once', async () => {
      await onSite(pgliteSite, killMidImportAndRestart);
    }, 300_000);
  },
);
