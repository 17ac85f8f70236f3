// Per-mailbox caps and warm-up ramps held by two sender processes at once on PostgreSQL, each with the same
// fixed clock (fixtures/send-worker.ts, SEND_NOW): the claims of one mailbox are counted and taken under its
// lock, so two processes together send exactly what each mailbox may, day after day.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { spawnLineProcess, type LineProcess } from '../../helpers/child-lines.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { approvedSequence, connectGmail, json, readyWorkspace, relogin, twoSteps } from './sequence-fixtures.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);
const entry = fileURLToPath(new URL('./fixtures/send-worker.ts', import.meta.url));

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let now = new Date('2026-11-24T12:30:00Z');
const children: LineProcess[] = [];
// The service and its senders must read the same sealed tokens.
const env = {
  TOKEN_ENCRYPTION_KEY: `test:${randomBytes(32).toString('base64')}`,
  SEQUENCE_SEND_SPACING_MS: '0',
  SEQUENCE_MAILBOX_DAILY_CAP: '50',
};

beforeAll(async () => {
  if (!onPostgres) return;
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', clock: { now: () => now }, env }));
});
afterAll(async () => {
  for (const c of children) if (c.process.exitCode === null) c.process.kill('SIGKILL');
  await server?.close();
  await t?.close();
});

/** Two sender processes at `now`, claiming two messages at a time so their claims interleave; both must end well. */
async function twoSenders(): Promise<void> {
  const [{ search_path }] = await t.db.sql<{ search_path: string }[]>`show search_path`;
  // Sandbox mode: the senders reach the service's own sandbox Gmail, served by the test's server.
  const config = { ...env, PUBLIC_BASE_URL: server.url, SANDBOX_INTERNAL_URL: server.url, SEQUENCE_CLAIM_BATCH: '2' };
  const senders = [0, 1].map(() =>
    spawnLineProcess(entry, {
      SEND_DATABASE_URL: process.env.DATABASE_URL as string,
      SEND_SEARCH_PATH: search_path,
      SEND_CONFIG_ENV: JSON.stringify(config),
      SEND_NOW: now.toISOString(),
    }),
  );
  children.push(...senders);
  expect(await Promise.all(senders.map((s) => s.exited))).toEqual([0, 0]);
}

describe.runIf(onPostgres)('mailbox caps and ramps, two sender processes on PostgreSQL', () => {
  it('sends exactly each mailbox’s cap and ramp per 24 hours, no more, from two processes at once', async () => {
    const ws = await readyWorkspace(
      t,
      Array.from({ length: 30 }, (_, i) => ({
        email: `p${i}@example.com`,
        company: 'Co',
        custom_fields: { plan: 'p' },
      })),
    );
    const a = ws.connector.id;
    const b = (await connectGmail(t, ws.owner.token, `second.${ws.owner.email.split('@')[0]}@sandbox.example`)).id;
    const setSending = (id: string, body: unknown) =>
      json(t.request(`/api/v1/connectors/${id}/sending`, { method: 'PATCH', token: ws.owner.token, json: body }));
    await setSending(a, { daily_cap: 7 });
    await setSending(b, { warmup: { start_per_day: 4, increase_per_day: 1, max_per_day: 20 } });
    const seq = await approvedSequence(t, ws, {
      ...twoSteps(null),
      sender_connector_id: undefined,
      sender_connector_ids: [a, b],
      steps: [twoSteps(null).steps[0]],
    });
    await json(
      t.request(`/api/v1/sequences/${seq.id}/launch`, {
        method: 'POST',
        token: ws.owner.token,
        json: { enroll: { lead_ids: ws.leads.map((l) => l.id) } },
      }),
    );
    const sentBy = async () => {
      const rows = await t.db.sql<{ connector_id: string; n: number }[]>`
        select connector_id, count(*)::int as n from sequence_messages where sequence_id = ${seq.id} and status = 'sent'
        group by connector_id`;
      return Object.fromEntries(rows.map((r) => [r.connector_id, r.n]));
    };

    await twoSenders();
    expect(await sentBy()).toEqual({ [a]: 7, [b]: 4 });
    await twoSenders(); // the same day: nothing more
    expect(await sentBy()).toEqual({ [a]: 7, [b]: 4 });

    now = new Date(now.getTime() + 86_400_000 + 60_000); // the ramp's second day: 5 for b
    await relogin(t, ws);
    await twoSenders();
    expect(await sentBy()).toEqual({ [a]: 14, [b]: 9 });
  }, 180_000);
});
