// Inbound messages seeded straight into inbound_messages, as the mailbox sync records them. The sync's own
// tests (test/handlers/replies/ sync and record-inbound tests) cover how they are read and recorded; these
// tests need only the rows, to read them back through list_replies and get_conversation and to answer them.
import type { TestApp } from '../../helpers/app.ts';

export interface SeededInbound {
  id: string;
  messageIdHeader: string;
}

export interface InboundSeed {
  workspaceId: string;
  connectorId: string;
  leadId: string | null;
  classification?: 'reply' | 'auto_reply' | 'bounce' | 'unsubscribe_request' | 'ignored';
  sequenceMessageId?: string | null;
  sequenceId?: string | null;
  threadId?: string | null;
  inReplyTo?: string | null;
  subject?: string | null;
  text?: string | null;
  effect?: string | null;
  receivedAt: Date;
}

let n = 0;

export async function seedInbound(t: TestApp, seed: InboundSeed): Promise<SeededInbound> {
  n += 1;
  const id = t.deps.ids.make('inb');
  const messageIdHeader = `<reply-${n}-${id}@example.com>`;
  await t.db.sql`
    insert into inbound_messages (id, workspace_id, connector_id, provider_message_id, thread_id, classification,
      bounce_type, message_id_header, in_reply_to, from_email, subject, text_body, sequence_message_id, sequence_id,
      lead_id, effect, received_at, created_at)
    values (${id}, ${seed.workspaceId}, ${seed.connectorId}, ${`gm-${id}`}, ${seed.threadId ?? null},
      ${seed.classification ?? 'reply'}, ${seed.classification === 'bounce' ? 'permanent' : null}, ${messageIdHeader},
      ${seed.inReplyTo ?? null}, ${'lead@example.com'}, ${seed.subject ?? null}, ${seed.text ?? null},
      ${seed.sequenceMessageId ?? null}, ${seed.sequenceId ?? null}, ${seed.leadId}, ${seed.effect ?? 'none'},
      ${seed.receivedAt}, ${seed.receivedAt})`;
  return { id, messageIdHeader };
}
