// One real message through the connector, so a human sees the connection works: built as RFC 5322,
// sent with Gmail's users.messages.send (base64url `raw`), to Google in live mode or to the sandbox
// mailbox in sandbox mode. A refused access token is refreshed once and the send retried.
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { ProviderError, sendRawMessage } from './google/google-client.ts';
import { composeGmailRaw } from './google/mime.ts';
import type { Actor } from '../actor.ts';
import { accessTokenFor, connectedConnector } from './tokens.ts';

export interface SendTestEmailResult {
  connector_id: string;
  mode: 'live' | 'sandbox';
  from: string;
  to: string;
  provider_message_id: string;
  sent_at: string;
}

export async function sendTestEmail(deps: Deps, actor: Actor, request: { connectorId: string; to: string }): Promise<SendTestEmailResult> {
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
  const send = async (force: boolean) => sendRawMessage(deps.connectors.gmail, await accessTokenFor(deps, connector, { force }), raw);
  let sent;
  try {
    sent = await send(false).catch(async (error: unknown) => {
      if (error instanceof ProviderError && error.kind === 'unauthorized') return send(true);
      throw error;
    });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    throw new ApiError('provider_unavailable', `The message was not sent: ${error.message}.`);
  }
  deps.log.info({ connector_id: connector.id, mode: connector.mode }, 'test email sent');
  return { connector_id: connector.id, mode: connector.mode, from, to: request.to, provider_message_id: sent.id, sent_at: now.toISOString() };
}
