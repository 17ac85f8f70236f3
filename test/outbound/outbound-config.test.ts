import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createOutboundClient } from '../../src/outbound/outbound-client.ts';
import { startServer, type TestServer } from './test-servers.ts';

describe('OUTBOUND_ALLOW_PRIVATE and OUTBOUND_USER_AGENT', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer((_req, res) => res.end('local'));
  });
  afterAll(() => server.close());

  it('keeps private addresses refused by default', async () => {
    const config = loadConfig({});
    expect(config.outbound.allowPrivate).toBe(false);
    const client = createOutboundClient(config.outbound);
    const error = await client
      .fetch(`${server.origin}/`)
      .then(
        () => undefined,
        (e: unknown) => e,
      )
      .finally(() => client.close());
    expect(error).toMatchObject({ reason: 'address_not_allowed' });
    expect(server.connections).toBe(0);
  });

  it('reaches a loopback server with the switch on, sending the configured User-Agent', async () => {
    const config = loadConfig({
      OUTBOUND_ALLOW_PRIVATE: 'true',
      OUTBOUND_USER_AGENT: 'acme-fetcher/2 (+https://acme.test/bot)',
    });
    const client = createOutboundClient(config.outbound);
    const response = await client.fetch(`${server.origin}/`);
    expect(await response.text()).toBe('local');
    await client.close();
    expect(server.requests.at(-1)?.headers['user-agent']).toBe('acme-fetcher/2 (+https://acme.test/bot)');
  });
});
