import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookupAddress } from 'node:dns';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createOutboundClient, type OutboundClient } from '../../src/outbound/outbound-client.ts';
import { OutboundError } from '../../src/outbound/outbound-error.ts';
import { startServer, testCa, type TestServer } from './test-servers.ts';

const userAgent = 'outbound-test/1.0';

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

/** Redirects per the query (`?status=&to=`); `/chain/N` redirects N more times, then answers. */
function redirector(req: IncomingMessage, res: ServerResponse, body: string) {
  const url = new URL(req.url ?? '/', 'http://x');
  const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
  if (chain && chain[1] !== '0') {
    res.writeHead(302, { location: `/chain/${Number(chain[1]) - 1}` }).end();
  } else if (url.searchParams.has('to')) {
    res
      .writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to')! })
      .end('moving');
  } else {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, body }));
  }
}

describe('outbound client redirects', () => {
  // Servers on 127.0.0.2 stand in for public hosts (allowed by CIDR); 127.0.0.1 stays refused.
  let allowedHttp: TestServer;
  let otherAllowed: TestServer;
  let allowedHttps: TestServer;
  let loopback: TestServer;
  let client: OutboundClient;

  beforeAll(async () => {
    allowedHttp = await startServer(redirector, { host: '127.0.0.2' });
    otherAllowed = await startServer(redirector, { host: '127.0.0.2' });
    allowedHttps = await startServer(redirector, { host: '127.0.0.2', tls: true });
    loopback = await startServer((_req, res) => res.end('internal'));
    const resolve = async (): Promise<LookupAddress[]> => [{ address: '127.0.0.2', family: 4 }];
    client = createOutboundClient({ userAgent, allowedCidrs: ['127.0.0.2/32'], resolve, tls: { ca: testCa } });
  });
  afterAll(async () => {
    await client.close();
    await Promise.all([allowedHttp, otherAllowed, allowedHttps, loopback].map((s) => s.close()));
  });

  const via = (server: TestServer, to: string, status = 302) =>
    `${server.origin}/r?status=${status}&to=${encodeURIComponent(to)}`;

  it('refuses a redirect from an allowed host to loopback at the second hop', async () => {
    const error = await failure(client.fetch(via(allowedHttp, `http://127.0.0.1:${loopback.port}/admin`)));
    expect(error.reason).toBe('address_not_allowed');
    expect(error.details).toMatchObject({ addressClass: 'loopback', url: `http://127.0.0.1:${loopback.port}/admin` });
    expect(loopback.connections).toBe(0);
  });

  it('refuses a redirect to a name that resolves to loopback', async () => {
    const error = await failure(client.fetch(via(allowedHttp, `http://[::ffff:127.0.0.1]:${loopback.port}/`)));
    expect(error.details.addressClass).toBe('loopback');
    expect(loopback.connections).toBe(0);
  });

  it('follows five redirects and lists them', async () => {
    const response = await client.fetch(`${allowedHttp.origin}/chain/5`);
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${allowedHttp.origin}/chain/0`);
    expect(response.redirects).toEqual([5, 4, 3, 2, 1].map((n) => `${allowedHttp.origin}/chain/${n}`));
    await response.cancel();
  });

  it('refuses a sixth redirect without following it', async () => {
    const before = allowedHttp.requests.length;
    const error = await failure(client.fetch(`${allowedHttp.origin}/chain/6`));
    expect(error.reason).toBe('too_many_redirects');
    expect(allowedHttp.requests.slice(before).map((r) => r.url)).toEqual([6, 5, 4, 3, 2, 1].map((n) => `/chain/${n}`));
  });

  it('refuses any redirect when a call allows none', async () => {
    const error = await failure(client.fetch(`${allowedHttp.origin}/chain/1`, { maxRedirects: 0 }));
    expect(error.reason).toBe('too_many_redirects');
  });

  it('refuses a redirect from https to http without connecting to it', async () => {
    const before = otherAllowed.connections;
    const error = await failure(client.fetch(via(allowedHttps, `${otherAllowed.origin}/`)));
    expect(error.reason).toBe('redirect_to_insecure');
    expect(otherAllowed.connections).toBe(before);
  });

  it('follows a redirect from https to https', async () => {
    const response = await client.fetch(via(allowedHttps, `${allowedHttps.origin}/done`));
    expect(await response.json()).toEqual({ method: 'GET', body: '' });
  });

  it('refuses a redirect to another scheme', async () => {
    expect((await failure(client.fetch(via(allowedHttp, 'file:///etc/passwd')))).reason).toBe('url_scheme_not_allowed');
  });

  it('refuses a redirect to a URL with credentials', async () => {
    const to = `http://user:pw@127.0.0.2:${otherAllowed.port}/`;
    expect((await failure(client.fetch(via(allowedHttp, to)))).reason).toBe('url_credentials_not_allowed');
  });

  it.each([
    [303, 'POST', 'GET', ''],
    [303, 'PUT', 'GET', ''],
    [301, 'POST', 'GET', ''],
    [302, 'POST', 'GET', ''],
    [302, 'PUT', 'PUT', 'payload'],
    [307, 'POST', 'POST', 'payload'],
    [308, 'POST', 'POST', 'payload'],
  ])('turns a %i after %s into %s with body "%s"', async (status, method, wantMethod, wantBody) => {
    const response = await client.fetch(via(allowedHttp, '/done', status), {
      method,
      body: 'payload',
      headers: { 'content-type': 'text/plain' },
    });
    expect(await response.json()).toEqual({ method: wantMethod, body: wantBody });
    const final = allowedHttp.requests.at(-1)!;
    expect(final.headers['content-type']).toBe(wantBody ? 'text/plain' : undefined);
  });

  it('drops Authorization and Cookie on a redirect to another origin', async () => {
    const headers = { authorization: 'Bearer s3cret', cookie: 'session=1', 'x-trace': 't1' };
    await (await client.fetch(via(allowedHttp, `${otherAllowed.origin}/done`), { headers })).cancel();
    const [first, second] = [allowedHttp.requests.at(-1)!, otherAllowed.requests.at(-1)!];
    expect(first.headers).toMatchObject(headers);
    expect(second.headers.authorization).toBeUndefined();
    expect(second.headers.cookie).toBeUndefined();
    expect(second.headers['x-trace']).toBe('t1');
  });

  it('keeps Authorization and Cookie on a redirect within the origin', async () => {
    const headers = { authorization: 'Bearer s3cret', cookie: 'session=1' };
    await (await client.fetch(via(allowedHttp, '/done'), { headers })).cancel();
    expect(allowedHttp.requests.at(-1)!.headers).toMatchObject({ ...headers, 'user-agent': userAgent });
  });

  it('hands a redirect without Location to the caller as the final response', async () => {
    const bare = await startServer((_req, res) => res.writeHead(302).end(), { host: '127.0.0.2' });
    const response = await client.fetch(`${bare.origin}/`).finally(() => bare.close());
    expect(response.status).toBe(302);
    expect(response.redirects).toEqual([]);
  });
});
