// The human gate on replies, as on sequences (src/handlers/sequences/sequence-decision.ts): while the workspace
// requires human approval, only a person signed in with their own login approves or rejects a reply, never an
// API key and never a tool call; and a reply such a caller writes waits for that person.
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { isPerson, type Actor } from '../actor.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { findWorkspaceSettings } from '../sequences/sequences-data.ts';
import {
  findConversationReply,
  moveConversationReply,
  type ConversationReplyRow,
} from './conversation-replies-data.ts';
import { deliverReply } from './reply-send.ts';
import { replyApprovalUrl, replyEventData } from './reply-wire.ts';

/** Whether a reply this actor writes must wait for a person. */
export async function needsApproval(deps: Deps, actor: Actor): Promise<boolean> {
  const settings = await findWorkspaceSettings(deps.db.sql, actor.workspaceId);
  return settings.require_human_approval && !isPerson(actor);
}

function humanRequired(deps: Deps, replyId: string): ApiError {
  const url = replyApprovalUrl(deps.config.publicBaseUrl, replyId);
  return new ApiError(
    'approval_requires_human',
    `This workspace requires a person to approve replies to leads. Agents and API keys cannot approve or reject: give this link to your human, who reads the reply and decides there: ${url}. Then call get_conversation with wait_seconds 50 until it changes.`,
    { extensions: { approval_url: url } },
  );
}

export const decidedBy = (actor: Actor) => actor.userId ?? actor.keyId ?? 'operator';

async function requireReply(deps: Deps, actor: Actor, replyId: string): Promise<ConversationReplyRow> {
  const row = await findConversationReply(deps.db.sql, actor.workspaceId, replyId);
  if (!row) throw new ApiError('not_found', `No reply ${replyId} in this workspace.`);
  return row;
}

const notPending = (row: ConversationReplyRow, verb: string) =>
  new ApiError('conflict', `Only a reply pending approval can be ${verb}; this one is ${row.status}.`);

/** A person approves: the reply moves to `sending` (committed) and is sent now; answers it sent or failed. */
export async function approvePending(deps: Deps, actor: Actor, replyId: string): Promise<ConversationReplyRow> {
  // 404 for a reply outside the workspace before the gate says anything about it.
  const current = await requireReply(deps, actor, replyId);
  if (await needsApproval(deps, actor)) throw humanRequired(deps, replyId);
  const now = deps.clock.now();
  const sending = await deps.db.sql.begin(async (tx) => {
    const moved = await moveConversationReply(tx, actor.workspaceId, replyId, {
      from: 'pending_approval',
      to: 'sending',
      now,
      decision: { by: decidedBy(actor), note: null },
    });
    if (moved)
      await recordEvent(
        deps,
        tx,
        actor.workspaceId,
        eventActor(actor),
        'conversation_reply.approved',
        replyEventData(moved),
      );
    return moved;
  });
  if (!sending) throw notPending((await requireReply(deps, actor, replyId)) ?? current, 'approved');
  return deliverReply(deps, eventActor(actor), sending);
}

/** A person rejects: the reply is never sent; the note says why. */
export async function rejectPending(
  deps: Deps,
  actor: Actor,
  request: { replyId: string; note: string },
): Promise<ConversationReplyRow> {
  await requireReply(deps, actor, request.replyId);
  if (await needsApproval(deps, actor)) throw humanRequired(deps, request.replyId);
  const rejected = await deps.db.sql.begin(async (tx) => {
    const moved = await moveConversationReply(tx, actor.workspaceId, request.replyId, {
      from: 'pending_approval',
      to: 'rejected',
      now: deps.clock.now(),
      decision: { by: decidedBy(actor), note: request.note },
    });
    if (moved)
      await recordEvent(
        deps,
        tx,
        actor.workspaceId,
        eventActor(actor),
        'conversation_reply.rejected',
        replyEventData(moved),
      );
    return moved;
  });
  if (!rejected) throw notPending(await requireReply(deps, actor, request.replyId), 'rejected');
  if (rejected.lead_id) deps.resourceWatch.changed(rejected.lead_id);
  return rejected;
}
