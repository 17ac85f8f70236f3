// A sandbox-mode test helper, like a payment provider's test cards: the lead of a message a sandbox
// connector sent answers it (a reply or an out-of-office auto-reply), or the receiving server bounces it.
// The answer lands in the sending account's sandbox mailbox, in the original's thread, as mail from outside
// would; nothing else is recorded, because the mailbox sync finds and classifies it like any Gmail message.
// Live mail is refused: a real lead's answer cannot be faked.
import { randomUUID } from 'node:crypto';
import addressparser from 'nodemailer/lib/addressparser/index.js';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { SimulateSandboxInboundInput, SimulateSandboxInboundOutput } from '../../generated/handlers.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { insertSandboxMessage } from './sandbox-data.ts';
import { composeInbound, SANDBOX_MX, type InboundKind } from './sandbox-inbound-mime.ts';
import {
  findSandboxMessageInWorkspace,
  findSequenceMessageForInbound,
  type SandboxMailRow,
} from './sandbox-mailbox-data.ts';
import { sandboxMessageBody } from './wire.ts';

export type SimulateSandboxInboundRequest = SimulateSandboxInboundInput['body'];

const notSandbox = (detail: string) =>
  new ApiError(
    'not_sandbox',
    `${detail} simulate_sandbox_inbound is a test helper for sandbox mode: it answers only messages a sandbox connector sent, and live mail cannot be faked.`,
  );

/** The first address of a To header as stored. */
const firstAddress = (to: string | null) =>
  addressparser(to ?? '', { flatten: true }).find((a) => a.address)?.address ?? null;

/** The sandbox message to answer and the lead it went to, or why it cannot be answered. */
async function original(
  deps: Deps,
  workspaceId: string,
  messageId: string,
): Promise<{ sent: SandboxMailRow; lead: string }> {
  const missing = () => new ApiError('not_found', `No message ${messageId} in this workspace.`);
  let sent: SandboxMailRow | undefined;
  let lead: string | null = null;
  if (messageId.startsWith('msg_')) {
    const message = await findSequenceMessageForInbound(deps.db.sql, workspaceId, messageId);
    if (!message) throw missing();
    if (message.mode !== 'sandbox') throw notSandbox(`Message ${messageId} went through a live connector.`);
    if (message.status !== 'sent' || !message.provider_message_id)
      throw notSandbox(`Message ${messageId} was never sent (its status is ${message.status}).`);
    sent = await findSandboxMessageInWorkspace(deps.db.sql, workspaceId, message.provider_message_id);
    if (!sent) throw notSandbox(`Message ${messageId} is not in the sandbox mailbox.`);
    lead = message.to_email;
  } else {
    sent = await findSandboxMessageInWorkspace(deps.db.sql, workspaceId, messageId);
    if (!sent) throw missing();
    if (sent.direction !== 'sent')
      throw new ApiError('conflict', `Message ${messageId} is itself an answer; answer a message the connector sent.`);
  }
  lead = lead ?? firstAddress(sent.to_header);
  if (!lead) throw new ApiError('conflict', `Message ${messageId} names no recipient to answer as.`);
  return { sent, lead };
}

export async function simulateSandboxInbound(deps: Deps, actor: Actor, request: SimulateSandboxInboundRequest) {
  const { sent, lead } = await original(deps, actor.workspaceId, request.message_id);
  const now = deps.clock.now();
  const inboundMessageId = `<${randomUUID()}@${SANDBOX_MX}>`;
  const inbound = await composeInbound(
    request.kind,
    {
      account: sent.account_email,
      lead,
      subject: sent.subject ?? '',
      messageId: sent.message_id_header,
      headerBlock: sent.raw.split(/\r?\n\r?\n/, 1)[0],
    },
    { text: request.text, messageId: inboundMessageId, date: now },
  );
  const row = await insertSandboxMessage(deps.db.sql, actor.workspaceId, deps.ids, {
    grantId: sent.grant_id,
    raw: inbound.raw,
    account_email: sent.account_email,
    message_id_header: inboundMessageId,
    from_header: inbound.from,
    to_header: inbound.to,
    subject: inbound.subject,
    text_body: inbound.text,
    html_body: null,
    now,
    threadId: sent.thread_id,
    direction: 'inbound',
  });
  deps.log.info(
    { sandbox_message_id: row.id, kind: request.kind, answers: sent.id },
    'sandbox inbound message simulated',
  );
  return sandboxMessageBody(row);
}

export async function handle(
  input: SimulateSandboxInboundInput,
  ctx: HandlerContext,
): Promise<SimulateSandboxInboundOutput> {
  return { status: 201, body: await simulateSandboxInbound(ctx.deps, actorFrom(ctx), input.body) };
}
