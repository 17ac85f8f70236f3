// A connector as the contract shows it: never its tokens; the consent link only while it is pending (a
// first consent, or one adding capabilities); and `next_action`, the plain-words next step for an agent
// (null once connected with nothing pending).
import type { ConnectorRow } from './connectors-data.ts';
import type { SandboxMessageRow } from './sandbox-data.ts';
import { connectorCapabilities } from './google/google-endpoints.ts';
import type { MailboxSyncRow } from '../replies/mailbox-syncs-data.ts';
import { mailboxSyncBody } from './mailbox-sync-view.ts';
import type { sendingBody } from './mailbox-sending.ts';

type ConnectorSendingBody = ReturnType<typeof sendingBody>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function nextAction(c: Pick<ConnectorRow, 'id' | 'status' | 'authorization_url' | 'provider'>): string | null {
  switch (c.status) {
    case 'pending_consent':
      return `Show this link to the human and ask them to open it in a browser and allow access: ${c.authorization_url}. Then call get_connector with connector_id "${c.id}" and wait_seconds 50, again until its status is "connected" (or "failed").`;
    case 'connected':
      // Connected and waiting for the consent that adds capabilities (it keeps sending meanwhile).
      return c.authorization_url
        ? `Show this link to the human and ask them to open it in a browser and allow the added access: ${c.authorization_url}. The connector keeps working meanwhile. Then call get_connector with connector_id "${c.id}" and wait_seconds 50 until its capabilities include the ones asked for.`
        : null;
    default:
      return `Call start_connector_oauth with provider "${c.provider}" and reconnect_connector_id "${c.id}" for a fresh consent link, and show it to the human.`;
  }
}

/** Waiting for the human: a first consent, or the consent that adds capabilities to a connected connector. */
const consentPending = (c: ConnectorRow) =>
  c.status === 'pending_consent' || (c.status === 'connected' && c.pending_state_hash !== null);

/**
 * `sync`: the connector's mailbox_syncs row, and `sending`: its limits with live counts (mailbox-sending.ts),
 * where the caller read them (get_connector, list_connectors, update_connector_sending).
 */
export const connectorBody = (c: ConnectorRow, sync?: MailboxSyncRow | null, sending?: ConnectorSendingBody) => ({
  id: c.id,
  provider: c.provider,
  status: c.status,
  mode: c.mode,
  account_email: c.account_email,
  scopes_requested: [...c.scopes_requested],
  scopes_granted: [...c.scopes_granted],
  capabilities: connectorCapabilities(c),
  mailbox_sync: mailboxSyncBody(c, sync),
  authorization_url: consentPending(c) ? c.authorization_url : null,
  authorization_expires_at: consentPending(c) ? iso(c.authorization_expires_at) : null,
  failure_reason: c.failure_reason,
  next_action: nextAction(c),
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
  connected_at: iso(c.connected_at),
  ...(sending === undefined ? {} : { sending }),
});

/** What events carry: the connector without the consent link (its state is a one-time secret of the flow). */
export const connectorEventData = (c: ConnectorRow) => {
  const { authorization_url: _url, next_action: _next, ...rest } = connectorBody(c);
  return rest;
};

export const sandboxMessageBody = (m: SandboxMessageRow) => ({
  id: m.id,
  mode: 'sandbox' as const,
  direction: m.direction,
  account_email: m.account_email,
  from: m.from_header,
  to: m.to_header,
  subject: m.subject,
  message_id: m.message_id_header,
  text: m.text_body,
  html: m.html_body,
  list_unsubscribe: m.list_unsubscribe,
  list_unsubscribe_post: m.list_unsubscribe_post,
  created_at: m.created_at.toISOString(),
});
