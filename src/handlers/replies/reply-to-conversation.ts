// A reply written into a lead's thread: from a person's own login it is sent now; from an agent (tool call)
// or an API key, while the workspace requires human approval, it waits as `pending_approval` for a person
// (reply-decision.ts). Sending goes through the never-twice outbox in reply-send.ts.
import type { ReplyToConversationInput, ReplyToConversationOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { findConnector } from '../connectors/connectors-data.ts';
import { providerFor } from '../connectors/providers/providers.ts';
import { notConnected } from '../connectors/tokens.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import {
  insertConversationReply,
  leadConversationReplies,
  type ConversationReplyRow,
} from './conversation-replies-data.ts';
import { needsApproval } from './reply-decision.ts';
import { deliverReply } from './reply-send.ts';
import { replyThread } from './reply-thread.ts';
import { conversationReplyBody, replyEventData } from './reply-wire.ts';
import { findLeadContact, leadInbound, leadSentMessages } from './replies-data.ts';

async function requireAnswerableLead(deps: Deps, actor: Actor, leadId: string) {
  const lead = await findLeadContact(deps.db.sql, actor.workspaceId, leadId);
  if (!lead) throw new ApiError('not_found', `No lead ${leadId} in this workspace.`);
  if (lead.suppressed) {
    const why = lead.status === 'active' ? 'is on the suppression list' : `is ${lead.status}`;
    throw new ApiError('unprocessable', `Lead ${leadId} ${why}: nothing more is sent to this address.`);
  }
  return lead;
}

export async function replyToConversation(
  deps: Deps,
  actor: Actor,
  request: { leadId: string; body: string },
): Promise<ConversationReplyRow> {
  const lead = await requireAnswerableLead(deps, actor, request.leadId);
  const [inbound, sent, replies] = await Promise.all([
    leadInbound(deps.db.sql, actor.workspaceId, lead.id),
    leadSentMessages(deps.db.sql, actor.workspaceId, lead.id),
    leadConversationReplies(deps.db.sql, actor.workspaceId, lead.id),
  ]);
  const thread = replyThread(inbound, sent, replies);
  if (!thread)
    throw new ApiError(
      'conflict',
      `Lead ${lead.id} has no conversation yet: no sequence wrote to them and they wrote nothing back. Enroll them in a sequence to write first.`,
    );
  const connector = await findConnector(deps.db.sql, actor.workspaceId, thread.connectorId);
  if (!connector) throw new ApiError('conflict', `The mailbox that wrote to lead ${lead.id} is no longer connected.`);
  if (!providerFor(connector.provider)?.mailbox)
    throw new ApiError(
      'conflict',
      `Connector ${connector.id} is a ${connector.provider} connector; it cannot send mail.`,
    );
  if (connector.status !== 'connected') throw notConnected(connector);
  const waits = await needsApproval(deps, actor);
  const row = await deps.db.sql.begin(async (tx) => {
    // Committed as `sending` before the provider is called: a process that dies after leaves it for the sweep.
    const created = await insertConversationReply(
      tx,
      actor.workspaceId,
      {
        id: deps.ids.make('crp'),
        lead_id: lead.id,
        connector_id: connector.id,
        mode: connector.mode,
        thread_id: thread.threadId,
        in_reply_to: thread.inReplyTo,
        references_header: thread.references,
        to_email: lead.email,
        subject: thread.subject,
        body: request.body,
        status: waits ? 'pending_approval' : 'sending',
        created_by: actor.userId ?? actor.keyId ?? null,
        created_via: actor.viaTool ? 'mcp' : actor.kind,
      },
      deps.clock.now(),
    );
    if (waits)
      await recordEvent(
        deps,
        tx,
        actor.workspaceId,
        eventActor(actor),
        'conversation_reply.pending_approval',
        replyEventData(created),
      );
    return created;
  });
  if (waits) {
    deps.resourceWatch.changed(lead.id);
    return row;
  }
  return deliverReply(deps, eventActor(actor), row);
}

export async function handle(input: ReplyToConversationInput, ctx: HandlerContext): Promise<ReplyToConversationOutput> {
  const row = await replyToConversation(ctx.deps, actorFrom(ctx), {
    leadId: input.path.lead_id,
    body: input.body.body,
  });
  return { status: 201, body: conversationReplyBody(ctx.deps.config.publicBaseUrl)(row) };
}
