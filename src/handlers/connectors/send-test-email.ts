// One real message through the connector, so a human sees the connection works: built as RFC 5322,
// sent with Gmail's users.messages.send (base64url `raw`), to Google in live mode or to the sandbox
// mailbox in sandbox mode, through the connector's mailbox like every other send.
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { SendTestEmailInput, SendTestEmailOutput } from '../../generated/handlers.ts';
import { composeGmailRaw } from './google/mime.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import type { Actor } from '../actor.ts';
import { sendMail } from './providers/providers.ts';
import { connectedConnector } from './tokens.ts';

export interface SendTestEmailResult {
  connector_id: string;
  mode: 'live' | 'sandbox';
  from: string;
  to: string;
  provider_message_id: string;
  sent_at: string;
}

export async function sendTestEmail(
  deps: Deps,
  actor: Actor,
  request: { connectorId: string; to: string },
): Promise<SendTestEmailResult> {
  const connector = await connectedConnector(deps, actor.workspaceId, request.connectorId);
  const from = connector.account_email as string;
  const now = deps.clock.now();
  const sandboxNote = connector.mode === 'sandbox' ? ' (sandbox mode: kept in the sandbox mailbox, not delivered)' : '';
  const raw = await composeGmailRaw({
    from,
    to: request.to,
    subject: `Test message from your connected ${connector.provider} account${connector.mode === 'sandbox' ? ' [sandbox]' : ''}`,
    text: `This is a test message sent through connector ${connector.id}${sandboxNote}.\nIf you can read it, the connection works.\n`,
    html: `<p>This is a test message sent through connector <code>${connector.id}</code>${sandboxNote}.</p><p>If you can read it, the connection works.</p>`,
    messageId: `<${deps.ids.make('msg')}@service-mcp>`,
    date: now,
  });
  const outcome = await sendMail(deps, connector, raw);
  switch (outcome.kind) {
    case 'sent':
      deps.log.info({ connector_id: connector.id, mode: connector.mode }, 'test email sent');
      return {
        connector_id: connector.id,
        mode: connector.mode,
        from,
        to: request.to,
        provider_message_id: outcome.providerMessageId,
        sent_at: now.toISOString(),
      };
    case 'retryable':
    case 'refused':
      // The connector's own problem when it gave no token or cannot send (409 with how to reconnect).
      throw outcome.problem ?? notSent(outcome.reason);
    case 'bounced':
    case 'uncertain':
      throw notSent(outcome.reason);
  }
}

const notSent = (reason: string) => new ApiError('provider_unavailable', `The message was not sent: ${reason}.`);

export async function handle(input: SendTestEmailInput, ctx: HandlerContext): Promise<SendTestEmailOutput> {
  return {
    status: 200,
    body: await sendTestEmail(ctx.deps, actorFrom(ctx), { connectorId: input.path.connector_id, to: input.body.to }),
  };
}
