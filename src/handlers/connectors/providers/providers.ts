// The connector providers this service knows, by the name start_connector_oauth takes.
import { gmailProvider } from './gmail.ts';
import { metaAdsProvider } from './meta-ads.ts';
import type { ConnectorProvider } from './provider.ts';

export const connectorProviders: Record<string, ConnectorProvider> = {
  gmail: gmailProvider,
  meta_ads: metaAdsProvider,
};

export function providerFor(name: string): ConnectorProvider | undefined {
  return Object.hasOwn(connectorProviders, name) ? connectorProviders[name] : undefined;
}
