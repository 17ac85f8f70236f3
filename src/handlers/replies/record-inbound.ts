// One inbound message recorded and acted on, in one transaction: the row (unique by the connector and
// Gmail's message id) and its effects commit together, and only the transaction that inserted the row
// applies them, so a message seen by two syncs at once, or again after a crash, stops, pauses or
// suppresses once. The minute sync and the sender's pre-send thread check both record through here.
import type { ConnectorRow } from '../connectors/connectors-data.ts';
import type { FullMessage, MessageMetadata } from '../connectors/providers/mailbox.ts';
import type { MessageRow } from '../sequences/sequence-messages-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { findAnsweredMessage, insertInbound, setInboundEffect } from './inbound-data.ts';
import { addressOf, classify, cleanText, header, referencedIds, type Classified } from './classify.ts';
import { applyEffect, type Effect } from './inbound-effects.ts';

export interface Recorded {
  id: string;
  classification: Classified['classification'];
  effect: Effect;
  message: MessageRow;
  /** For a pause: when the enrollment's next step is now due. */
  resumeAt: Date | null;
}

/** Ours to ignore: what the connector's own account sent or drafted. */
function fromUs(connector: ConnectorRow, m: MessageMetadata): boolean {
  const labels = Array.isArray(m.labelIds) ? m.labelIds : [];
  if (labels.includes('SENT') || labels.includes('DRAFT')) return true;
  const from = addressOf(header(m, 'from'));
  return from !== null && from === connector.account_email?.toLowerCase();
}

const nothingKept = {
  threadId: null,
  classification: 'ignored',
  bounceType: null,
  bounceStatus: null,
  messageIdHeader: null,
  inReplyTo: null,
  fromEmail: null,
  subject: null,
  textBody: null,
  match: null,
} as const;

const receivedAt = (m: MessageMetadata, now: Date) =>
  m.receivedAt instanceof Date && !Number.isNaN(m.receivedAt.getTime()) ? m.receivedAt : now;

async function record(
  deps: Deps,
  tx: Queryable,
  connector: ConnectorRow,
  m: MessageMetadata,
  full: FullMessage | null,
): Promise<Recorded | null> {
  const now = deps.clock.now();
  const at = receivedAt(m, now);
  const match = fromUs(connector, m)
    ? undefined
    : await findAnsweredMessage(tx, connector.workspace_id, connector.id, m.threadId ?? null, referencedIds(m));
  const base = { connectorId: connector.id, providerMessageId: m.id, receivedAt: at, now };
  if (!match) {
    // Outside our threads (or ours): nothing of it is kept but the id, so it is never fetched again.
    await insertInbound(tx, connector.workspace_id, deps.ids, { ...base, ...nothingKept });
    return null;
  }
  const classified = classify(m, full);
  const id = await insertInbound(tx, connector.workspace_id, deps.ids, {
    ...base,
    threadId: m.threadId ?? null,
    ...classified,
    messageIdHeader: header(m, 'message-id'),
    inReplyTo: header(m, 'in-reply-to'),
    fromEmail: addressOf(header(m, 'from')),
    subject: header(m, 'subject'),
    textBody: cleanText(full?.text),
    match,
  });
  if (!id) return null;
  const { effect, resumeAt } = await applyEffect(deps, tx, { inboundId: id, message: match, classified, at });
  await setInboundEffect(tx, connector.workspace_id, id, effect);
  return { id, classification: classified.classification, effect, message: match, resumeAt };
}

/** Records one fetched message and applies what it means; null when it is not ours to act on or already recorded. */
export async function recordInbound(
  deps: Deps,
  connector: ConnectorRow,
  m: MessageMetadata,
  full: FullMessage | null,
): Promise<Recorded | null> {
  const recorded = await deps.db.sql.begin((tx) => record(deps, tx, connector, m, full));
  if (recorded) {
    // The reply inbox and get_lead's waits long-poll on these keys.
    deps.resourceWatch.changed(`replies:${connector.workspace_id}`);
    if (recorded.message.lead_id) deps.resourceWatch.changed(recorded.message.lead_id);
    deps.resourceWatch.changed(recorded.message.sequence_id);
  }
  return recorded;
}

/** A message that could not be recorded as read (bad data): kept as ignored so no sync fetches it again. */
export async function recordUnreadable(deps: Deps, connector: ConnectorRow, providerMessageId: string): Promise<void> {
  const now = deps.clock.now();
  await insertInbound(deps.db.sql, connector.workspace_id, deps.ids, {
    ...nothingKept,
    connectorId: connector.id,
    providerMessageId,
    receivedAt: now,
    now,
  });
}
