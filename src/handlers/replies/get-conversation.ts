// A lead's conversation: our sequence messages (subject only: their text is not stored), what the lead sent
// back, and the replies we wrote, merged oldest first, with each enrollment's state. With `wait_seconds` it
// answers when something new happens in it (the sync and the reply outbox call resourceWatch.changed(lead)).
import type { GetConversationInput, GetConversationOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { waitForChange } from '../operations/wait-for-change.ts';
import { leadConversationReplies } from './conversation-replies-data.ts';
import { findLeadContact, leadEnrollments, leadInbound, leadSentMessages } from './replies-data.ts';
import { inboundText } from './reply-wire.ts';

export type ConversationBody = Extract<GetConversationOutput, { status: 200 }>['body'];
type Entry = ConversationBody['messages'][number];

async function readConversation(deps: Deps, actor: Actor, leadId: string): Promise<ConversationBody> {
  const q = deps.db.sql;
  const lead = await findLeadContact(q, actor.workspaceId, leadId);
  if (!lead) throw new ApiError('not_found', `No lead ${leadId} in this workspace.`);
  const [sent, inbound, replies, enrollments] = await Promise.all([
    leadSentMessages(q, actor.workspaceId, leadId),
    leadInbound(q, actor.workspaceId, leadId),
    leadConversationReplies(q, actor.workspaceId, leadId),
    leadEnrollments(q, actor.workspaceId, leadId),
  ]);
  const entries: Array<Entry & { time: number }> = [
    ...sent.map((m) => ({
      direction: 'outbound' as const,
      kind: 'sequence_message' as const,
      id: m.id,
      at: m.at,
      subject: m.subject,
      text: null,
      status: m.status,
      sequence_id: m.sequence_id,
      step: m.step,
      classification: null,
    })),
    ...inbound.map((m) => ({
      direction: 'inbound' as const,
      kind: 'inbound' as const,
      id: m.id,
      at: m.received_at,
      subject: m.subject,
      text: inboundText(m),
      status: m.effect,
      sequence_id: m.sequence_id,
      step: null,
      classification: m.classification,
    })),
    ...replies.map((r) => ({
      direction: 'outbound' as const,
      kind: 'conversation_reply' as const,
      id: r.id,
      at: r.sent_at ?? r.created_at,
      subject: r.subject,
      text: r.body,
      status: r.status,
      sequence_id: null,
      step: null,
      classification: null,
    })),
  ].map((e) => ({ ...e, at: e.at.toISOString(), time: e.at.getTime() }));
  entries.sort((a, b) => a.time - b.time || a.id.localeCompare(b.id));
  return {
    lead_id: lead.id,
    email: lead.email,
    last_replied_at: lead.last_replied_at?.toISOString() ?? null,
    enrollments: enrollments.map((e) => ({
      sequence_id: e.sequence_id,
      status: e.status,
      stop_reason: e.stop_reason,
      next_due_at: e.next_due_at?.toISOString() ?? null,
    })),
    messages: entries.map(({ time: _time, ...entry }) => entry),
  };
}

/** What the caller sees change: each entry and its state, and each enrollment's. */
const fingerprint = (c: ConversationBody) =>
  JSON.stringify([
    c.messages.map((m) => `${m.id}:${m.status}`),
    c.enrollments.map((e) => `${e.sequence_id}:${e.status}`),
  ]);

export function getConversation(
  deps: Deps,
  actor: Actor,
  request: { leadId: string; waitSeconds: number; signal?: AbortSignal },
): Promise<ConversationBody> {
  return waitForChange(
    deps,
    actor,
    { id: request.leadId, waitSeconds: request.waitSeconds, signal: request.signal },
    () => readConversation(deps, actor, request.leadId),
    // A conversation never settles: the lead may always write again.
    { fingerprint, settled: () => false },
  );
}

export async function handle(input: GetConversationInput, ctx: HandlerContext): Promise<GetConversationOutput> {
  const body = await getConversation(ctx.deps, actorFrom(ctx), {
    leadId: input.path.lead_id,
    waitSeconds: input.query.wait_seconds ?? 0,
    signal: ctx.signal,
  });
  return { status: 200, body };
}
