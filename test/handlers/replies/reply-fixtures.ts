// A workspace whose sequence wrote to its leads (sandbox mode, sent by the in-process sender), and the sent
// sequence messages as stored, for the tests of replies.
import type { TestApp } from '../../helpers/app.ts';
import { approvedSequence, drain, json, readyWorkspace, type Workspace } from '../sequences/sequence-fixtures.ts';

export interface SentRow {
  id: string;
  lead_id: string;
  sequence_id: string;
  subject: string;
  thread_id: string | null;
  message_id_header: string;
  provider_message_id: string;
}

export interface Conversing {
  ws: Workspace;
  sequenceId: string;
  sent: SentRow[];
}

const oneStep = (connectorId: string) => ({
  name: 'Intro',
  sender_connector_id: connectorId,
  // The reply sync is not what these tests are about: the sender needs no read_replies.
  stop_on_reply: false,
  schedule: { timezone: 'UTC', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start_hour: 0, end_hour: 24 },
  daily_limit: 100,
  steps: [{ subject: 'Hello {{first_name | "there"}}', body: 'Hi {{first_name | "there"}}, shall we talk?' }],
});

/** A workspace with `leads` (default one) written to once by a sequence; a lead `quiet` was never written to. */
export async function conversingWorkspace(
  t: TestApp,
  leads: Array<Record<string, unknown>> = [{ email: 'grace@example.com', first_name: 'Grace' }],
): Promise<Conversing> {
  const ws = await readyWorkspace(t, leads);
  const seq = await approvedSequence(t, ws, oneStep(ws.connector.id));
  await json(
    t.request(`/api/v1/sequences/${seq.id}/launch`, {
      method: 'POST',
      token: ws.owner.token,
      json: { enroll: { lead_ids: ws.leads.map((l) => l.id) } },
    }),
  );
  await drain(t);
  const sent = await t.db.sql<SentRow[]>`
    select id, lead_id, sequence_id, subject, thread_id, message_id_header, provider_message_id
    from sequence_messages where sequence_id = ${seq.id} and status = 'sent' order by lead_id`;
  return { ws, sequenceId: seq.id, sent };
}

/** The raw MIME of the messages the sandbox mailbox holds for `workspaceId`, oldest first. */
export async function sandboxRaw(t: TestApp, workspaceId: string): Promise<string[]> {
  const rows = await t.db.sql<{ raw: string }[]>`
    select raw from sandbox_messages where workspace_id = ${workspaceId} order by created_at, id`;
  return rows.map((r) => r.raw);
}

/** A header's value in a raw MIME message, unfolded. */
export function mimeHeader(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}
