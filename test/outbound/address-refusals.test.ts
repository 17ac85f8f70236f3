import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookupAddress } from 'node:dns';
import { createAddressPolicy, type AddressPolicy } from '../../src/outbound/address-policy.ts';
import { createOutboundClient, type OutboundClient } from '../../src/outbound/outbound-client.ts';
import { OutboundError } from '../../src/outbound/outbound-error.ts';
import { startServer, type TestServer } from './test-servers.ts';

const userAgent = 'outbound-test/1.0';

async function refusal(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

/** A resolver that answers every name with the given addresses. */
const resolvingTo =
  (...addresses: string[]) =>
  async (): Promise<LookupAddress[]> =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('outbound client address checks', () => {
  let loopback: TestServer;
  let client: OutboundClient;

  beforeAll(async () => {
    loopback = await startServer((_req, res) => res.end('secret'));
    client = createOutboundClient({ userAgent });
  });
  afterAll(async () => {
    await client.close();
    await loopback.close();
  });

  // Every spelling of a loopback or unspecified address; the WHATWG parser turns the decimal and
  // hex forms into 127.0.0.1 without any DNS lookup, which is why the check runs at connect time.
  const literals: [string, string][] = [
    ['http://127.0.0.1:PORT/', 'loopback'],
    ['http://2130706433:PORT/', 'loopback'],
    ['http://0x7f.1:PORT/', 'loopback'],
    ['http://0177.0.0.1:PORT/', 'loopback'],
    ['http://127.1:PORT/', 'loopback'],
    ['http://[::ffff:127.0.0.1]:PORT/', 'loopback'],
    ['http://[::1]:PORT/', 'loopback'],
    ['http://[64:ff9b::7f00:1]:PORT/', 'loopback'],
    ['http://0.0.0.0:PORT/', 'unspecified'],
    ['http://0:PORT/', 'unspecified'],
    ['http://[::]:PORT/', 'unspecified'],
    ['http://169.254.169.254:PORT/latest/meta-data/', 'linkLocal'],
    ['http://10.0.0.1:PORT/', 'private'],
  ];

  it.each(literals)('refuses %s as a %s address without opening a connection', async (template, addressClass) => {
    const before = loopback.connections;
    const error = await refusal(client.fetch(template.replace('PORT', String(loopback.port))));
    expect(error.reason).toBe('address_not_allowed');
    expect(error.details.addressClass).toBe(addressClass);
    expect(loopback.connections).toBe(before);
  });

  it('refuses the IPv4-compatible literal [::127.0.0.1] of a dual-stack loopback listener, even with private addresses allowed', async () => {
    // Listening on :: takes IPv6 and IPv4 (as ::ffff:a.b.c.d), so a system that routed ::127.0.0.1
    // would reach it; on Linux the kernel answers EHOSTUNREACH, so only the policy's verdict is seen.
    const dualStack = await startServer((_req, res) => res.end('secret'), { host: '::' });
    const local = createOutboundClient({ userAgent, allowPrivate: true });
    try {
      for (const open of [client, local]) {
        const error = await refusal(open.fetch(`http://[::127.0.0.1]:${dualStack.port}/`));
        expect(error.reason).toBe('address_not_allowed');
        expect(error.details).toMatchObject({ address: '::7f00:1', addressClass: 'ipv4Compatible' });
      }
      expect(dualStack.connections).toBe(0);
    } finally {
      await Promise.all([local.close(), dualStack.close()]);
    }
  });

  it('refuses localhost, whose DNS answer is loopback, before connecting', async () => {
    const error = await refusal(client.fetch(`http://localhost:${loopback.port}/`));
    expect(error.reason).toBe('address_not_allowed');
    expect(error.details.addressClass).toBe('loopback');
    expect(error.details.url).toBe(`http://localhost:${loopback.port}/`);
    expect(loopback.connections).toBe(0);
  });

  it.each([
    ['10.0.0.1', 'private'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
  ])('refuses a host name that resolves to %s (%s)', async (address, addressClass) => {
    const named = createOutboundClient({ userAgent, resolve: resolvingTo(address) });
    const error = await refusal(named.fetch(`http://files.example.com:${loopback.port}/data.csv`)).finally(() =>
      named.close(),
    );
    expect(error.reason).toBe('address_not_allowed');
    expect(error.details).toMatchObject({
      address,
      addressClass,
      url: `http://files.example.com:${loopback.port}/data.csv`,
    });
  });

  it('refuses a host name when any of its addresses is not allowed', async () => {
    const mixed = createOutboundClient({ userAgent, resolve: resolvingTo('93.184.215.14', '127.0.0.1') });
    const error = await refusal(mixed.fetch(`http://mixed.example.com:${loopback.port}/`)).finally(() => mixed.close());
    expect(error.details).toMatchObject({ address: '127.0.0.1', addressClass: 'loopback' });
    expect(loopback.connections).toBe(0);
  });

  it('reaches the same loopback server when private addresses are allowed', async () => {
    const local = createOutboundClient({ userAgent, allowPrivate: true });
    const response = await local.fetch(`http://localhost:${loopback.port}/`);
    expect(await response.text()).toBe('secret');
    await local.close();
    expect(loopback.requests.at(-1)?.headers['user-agent']).toBe(userAgent);
  });

  it('consults the policy on the DNS answer and again on the connected socket', async () => {
    const publicServer = await startServer((_req, res) => res.end('public'), { host: '127.0.0.2' });
    const seen: string[] = [];
    const strict = createAddressPolicy({ allowedCidrs: ['127.0.0.2/32'] });
    const recording: AddressPolicy = (address) => {
      seen.push(address);
      return strict(address);
    };
    const named = createOutboundClient({ userAgent, policy: recording, resolve: resolvingTo('127.0.0.2') });
    try {
      await (await named.fetch(`http://public.test:${publicServer.port}/`)).text();
      expect(seen).toEqual(['127.0.0.2', '127.0.0.2']);
      await (await named.fetch(`http://127.0.0.2:${publicServer.port}/other`)).text();
      expect(seen).toEqual(['127.0.0.2', '127.0.0.2', '127.0.0.2', '127.0.0.2']);
    } finally {
      await Promise.all([named.close(), publicServer.close()]);
    }
  });

  it('checks the address a host name resolves to, not the name', async () => {
    // Another loopback address stands in for "public": only 127.0.0.2 is allowed.
    const publicServer = await startServer((_req, res) => res.end('public'), { host: '127.0.0.2' });
    const allowed = createOutboundClient({
      userAgent,
      allowedCidrs: ['127.0.0.2/32'],
      resolve: resolvingTo('127.0.0.2'),
    });
    const rebound = createOutboundClient({
      userAgent,
      allowedCidrs: ['127.0.0.2/32'],
      resolve: resolvingTo('127.0.0.1'),
    });
    try {
      expect(await (await allowed.fetch(`http://public.test:${publicServer.port}/`)).text()).toBe('public');
      const before = loopback.connections;
      const error = await refusal(rebound.fetch(`http://public.test:${loopback.port}/`));
      expect(error.details).toMatchObject({ address: '127.0.0.1', addressClass: 'loopback' });
      expect(loopback.connections).toBe(before);
    } finally {
      await Promise.all([allowed.close(), rebound.close(), publicServer.close()]);
    }
  });
});

describe('outbound client URL checks', () => {
  const client = createOutboundClient({ userAgent, allowPrivate: true });
  afterAll(() => client.close());

  it.each([
    'ftp://example.com/file.csv',
    'file:///etc/passwd',
    'data:text/plain,hi',
    'javascript:alert(1)',
    'gopher://127.0.0.1:70/',
  ])('refuses the URL %s by its scheme', async (url) => {
    expect((await refusal(client.fetch(url))).reason).toBe('url_scheme_not_allowed');
  });

  it('refuses credentials in the URL and does not echo them', async () => {
    const error = await refusal(client.fetch('http://admin:hunter2@example.com/'));
    expect(error.reason).toBe('url_credentials_not_allowed');
    expect(JSON.stringify(error.details) + error.message).not.toContain('hunter2');
  });

  it('refuses a string that is not a URL', async () => {
    expect((await refusal(client.fetch('not a url'))).reason).toBe('url_invalid');
  });

  it('reports a name that does not resolve as dns_failure', async () => {
    const unresolvable = createOutboundClient({
      userAgent,
      resolve: async (hostname) => {
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      },
    });
    const error = await refusal(unresolvable.fetch('https://nowhere.example.com/')).finally(() => unresolvable.close());
    expect(error.reason).toBe('dns_failure');
  });

  it('reports a refused connection as connection_failed', async () => {
    const closed = await startServer((_req, res) => res.end());
    await closed.close();
    const error = await refusal(client.fetch(`${closed.origin}/`));
    expect(error.reason).toBe('connection_failed');
  });

  it('throws at construction when misconfigured', () => {
    expect(() => createOutboundClient({ userAgent: '' })).toThrow(/userAgent/);
    expect(() => createOutboundClient({ userAgent, maxBytes: 0 })).toThrow(/maxBytes/);
    expect(() => createOutboundClient({ userAgent, allowedCidrs: ['nope'] })).toThrow(/CIDR/);
  });
});
