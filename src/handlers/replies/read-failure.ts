// A mailbox read that did not work, in the words last_error and the pre-send check's log give a person:
// what happened and what to do about it.
import type { ConnectorRow } from '../connectors/connectors-data.ts';
import type { ReadOutcome } from '../connectors/providers/mailbox.ts';

/** How to give a connector the read_replies capability: the same words sync_connector_mailbox's 409 uses. */
export const reconnectHint = (connectorId: string) =>
  `Call start_connector_oauth with provider "gmail", reconnect_connector_id "${connectorId}" and capabilities ["read_replies"], and show the consent link to the human.`;

export function readFailure(connector: ConnectorRow, outcome: Exclude<ReadOutcome<unknown>, { kind: 'ok' }>): string {
  switch (outcome.kind) {
    case 'insufficient_scope':
      return `Gmail does not let this connector read its mailbox (${outcome.reason}): replies are not seen. ${reconnectHint(connector.id)}`;
    case 'refused':
      return `The connector cannot read its mailbox (${outcome.reason}). Call start_connector_oauth with provider "gmail" and reconnect_connector_id "${connector.id}" for a fresh consent link.`;
    case 'retryable':
      return `Gmail did not answer (${outcome.reason}); the next sync tries again.`;
    case 'history_expired':
      return 'Gmail no longer keeps the mailbox history this sync needed; the next sync reads the last 30 days.';
    case 'not_found':
      return 'Gmail did not find the mailbox; the next sync tries again.';
  }
}
