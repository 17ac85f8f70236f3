// The connector providers this service knows, by the name start_connector_oauth takes, and the one
// path by which anything sends mail through a connector.
import { ApiError } from '../../../errors.ts';
import type { Deps } from '../../../deps.ts';
import type { ConnectorRow } from '../connectors-data.ts';
import { gmailProvider } from './gmail.ts';
import { metaAdsProvider } from './meta-ads.ts';
import type { SendOutcome } from './mailbox.ts';
import type { ConnectorProvider } from './provider.ts';

export const connectorProviders: Record<string, ConnectorProvider> = {
  gmail: gmailProvider,
  meta_ads: metaAdsProvider,
};

export function providerFor(name: string): ConnectorProvider | undefined {
  return Object.hasOwn(connectorProviders, name) ? connectorProviders[name] : undefined;
}

/** Sends one message through the connector's mailbox; a connector whose provider is not a mailbox refuses. */
export async function sendMail(
  deps: Deps,
  connector: ConnectorRow,
  raw: string,
  options?: { threadId?: string },
): Promise<SendOutcome> {
  const mailbox = providerFor(connector.provider)?.mailbox;
  if (mailbox) return mailbox.send(deps, connector, raw, options);
  const reason = `Connector ${connector.id} is a ${connector.provider} connector; it cannot send mail.`;
  return {
    kind: 'refused',
    code: 'not_a_mailbox',
    reason,
    problem: new ApiError('conflict', `${reason} Use a Gmail connector.`),
  };
}
