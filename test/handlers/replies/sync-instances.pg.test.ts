// Two service instances on one PostgreSQL database sync the same sandbox mailbox at the same time, after
// several leads answered: each inbound message is recorded once, and each reply stops its lead and is an
// event once, whichever instance read it — also when both then re-read the whole mailbox (full sync).
// PostgreSQL only: one PGlite database cannot be shared by two instances.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/db/connection.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { simulate } from '../connectors/sandbox-inbox-fixtures.ts';
import {
  approvedSequence,
  drain,
  json,
  readyWorkspace,
  twoSteps,
  type Workspace,
} from '../sequences/sequence-fixtures.ts';
import { syncMailbox, type SyncResult } from '../../../src/handlers/replies/sync-mailbox.ts';
import { providerFor } from '../../../src/handlers/connectors/providers/providers.ts';
import type { MailboxReader } from '../../../src/handlers/connectors/providers/mailbox.ts';

const url = process.env.DATABASE_URL;
let a: TestApp;
let b: TestApp;
let secondDb: Database;
let server: { url: string; close(): Promise<void> };
let ws: Workspace;
let sent: Array<{ id: string; lead_id: string }>;

describe.skipIf(!url)('two instances syncing one mailbox (PostgreSQL; skipped without DATABASE_URL)', () => {
  beforeAll(async () => {
    ({ app: a, server } = await listenOnReservedPort({ jobs: 'enqueue', env: { SEQUENCE_SEND_SPACING_MS: '0' } }));
    const [{ schema }] = await a.deps.db.sql<{ schema: string }[]>`select current_schema() as schema`;
    secondDb = await openDatabase({ databaseUrl: url, searchPath: schema });
    // The second instance reads the same sandbox Google (served by the first) over HTTP.
    b = await createTestApp({ db: secondDb, env: { PUBLIC_BASE_URL: server.url, SANDBOX_INTERNAL_URL: server.url } });
    ws = await readyWorkspace(
      a,
      ['ana', 'ben', 'cat', 'dan', 'eve'].map((n) => ({
        email: `${n}@${n}.example`,
        first_name: n,
        company: 'Co',
        custom_fields: { plan: 'pro' },
      })),
    );
    const seq = await approvedSequence(a, ws, twoSteps(ws.connector.id));
    await json(
      a.request(`/api/v1/sequences/${seq.id}/launch`, {
        method: 'POST',
        token: ws.owner.token,
        json: { enroll: { lead_ids: ws.leads.map((l) => l.id) } },
      }),
    );
    await drain(a);
    sent = await a.db.sql`select id, lead_id from sequence_messages where sequence_id = ${seq.id} and status = 'sent'`;
    expect(sent).toHaveLength(5);
  });
  afterAll(async () => {
    await b?.close();
    await secondDb?.close();
    await server?.close();
    await a?.close();
  });

  const counts = async () => {
    const [row] = await a.db.sql<{ inbound: number; replied: number; lead_replied: number; stopped: number }[]>`
      select
        (select count(*)::int from inbound_messages where connector_id = ${ws.connector.id} and classification = 'reply') as inbound,
        (select count(*)::int from events where workspace_id = ${ws.owner.workspaceId} and type = 'email_message.replied') as replied,
        (select count(*)::int from events where workspace_id = ${ws.owner.workspaceId} and type = 'lead.replied') as lead_replied,
        (select count(*)::int from sequence_enrollments where workspace_id = ${ws.owner.workspaceId} and stop_reason = 'replied') as stopped`;
    return row;
  };
  const both = () =>
    Promise.all([
      syncMailbox(a.deps, ws.owner.workspaceId, ws.connector.id),
      syncMailbox(b.deps, ws.owner.workspaceId, ws.connector.id),
    ]);
  const ranOnce = (results: SyncResult[]) => {
    expect(
      results.every((r) => r === 'synced' || r === 'busy'),
      results.join(),
    ).toBe(true);
    expect(results).toContain('synced');
  };

  it('records each of several replies once when both instances sync at the same time', async () => {
    for (const m of sent.slice(0, 4)) {
      const res = await simulate(a, ws.owner, { message_id: m.id, kind: 'reply', text: 'Answered.' });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    ranOnce(await both());
    // Whichever instance lost the race now finds nothing new.
    ranOnce(await both());
    expect(await counts()).toEqual({ inbound: 4, replied: 4, lead_replied: 4, stopped: 4 });
    const [{ rows, ids }] = await a.db.sql<{ rows: number; ids: number }[]>`
      select count(*)::int as rows, count(distinct provider_message_id)::int as ids
      from inbound_messages where connector_id = ${ws.connector.id}`;
    expect(rows).toBe(ids);
  });

  it('records nothing twice when both instances re-read the whole mailbox at once', async () => {
    const last = sent[4];
    expect((await simulate(a, ws.owner, { message_id: last.id, kind: 'reply' })).status).toBe(201);
    // Forget where the sync stopped: both instances read the last 30 days again, at the same time.
    await a.db
      .sql`update mailbox_syncs set history_id = null, lease_until = null where connector_id = ${ws.connector.id}`;
    ranOnce(await both());
    await a.db
      .sql`update mailbox_syncs set history_id = null, lease_until = null where connector_id = ${ws.connector.id}`;
    ranOnce(await both());
    expect(await counts()).toEqual({ inbound: 5, replied: 5, lead_replied: 5, stopped: 5 });
  });

  it('records nothing twice when one instance lost its lease mid-sync and the other read the same messages', async () => {
    for (const m of sent.slice(0, 2))
      expect((await simulate(a, ws.owner, { message_id: m.id, kind: 'reply', text: 'And again.' })).status).toBe(201);
    // Instance A stops after fetching its first message; meanwhile its lease runs out and B syncs everything.
    const real = providerFor('gmail')?.mailbox?.read as MailboxReader;
    let arrived!: () => void;
    let release!: () => void;
    const fetched = new Promise<void>((resolve) => (arrived = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow: MailboxReader = Object.assign(Object.create(real), {
      metadata: async (...args: Parameters<MailboxReader['metadata']>) => {
        const out = await real.metadata(...args);
        arrived();
        await held;
        return out;
      },
    });
    const first = syncMailbox(a.deps, ws.owner.workspaceId, ws.connector.id, { reader: slow });
    await fetched;
    await a.db.sql`update mailbox_syncs set lease_until = null where connector_id = ${ws.connector.id}`;
    expect(await syncMailbox(b.deps, ws.owner.workspaceId, ws.connector.id)).toBe('synced');
    release();
    expect(['synced', 'failed']).toContain(await first);
    const [row] = await a.db.sql<{ replies: number; events: number; inbound_ids: number }[]>`
      select
        (select count(*)::int from inbound_messages where connector_id = ${ws.connector.id} and classification = 'reply') as replies,
        (select count(*)::int from events where workspace_id = ${ws.owner.workspaceId} and type = 'email_message.replied') as events,
        (select count(distinct data->>'inbound_id')::int from events where workspace_id = ${ws.owner.workspaceId} and type = 'email_message.replied') as inbound_ids`;
    expect(row).toEqual({ replies: 7, events: 7, inbound_ids: 7 });
  });
});
