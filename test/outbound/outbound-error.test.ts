import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { handleError } from '../../src/http/problem.ts';
import { createOutboundClient, type OutboundClient } from '../../src/outbound/outbound-client.ts';
import { OutboundError, outboundApiError } from '../../src/outbound/outbound-error.ts';
import { startServer, type TestServer } from './test-servers.ts';

/** What a handler does with a failed fetch (bulk_import_leads, crawling): an OutboundError becomes its 422. */
const asApiError =
  (field: string) =>
  (error: unknown): never => {
    throw error instanceof OutboundError ? outboundApiError(error, field) : error;
  };

describe('outboundApiError', () => {
  let target: TestServer;
  let client: OutboundClient;
  let local: OutboundClient;
  let app: Hono;

  beforeAll(async () => {
    target = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>page</p>'));
    client = createOutboundClient({ userAgent: 'outbound-test/1.0' });
    local = createOutboundClient({ userAgent: 'outbound-test/1.0', allowPrivate: true });
    // A handler as later issues will write it: the URL comes from the body, refusals become 422s.
    app = new Hono();
    app.onError(handleError);
    for (const [path, fetcher] of [
      ['/import', client],
      ['/import-local', local],
    ] as const) {
      app.post(path, async (c) => {
        const { source_url } = await c.req.json<{ source_url: string }>();
        const response = await fetcher.fetch(source_url, { accept: ['text/csv'] }).catch(asApiError('source_url'));
        return c.text(await response.text().catch(asApiError('source_url')));
      });
    }
    app.get('/broken', () => Promise.reject(new Error('a bug')).catch(asApiError('url')));
  });
  afterAll(async () => {
    await Promise.all([client.close(), local.close()]);
    await target.close();
  });

  const post = (sourceUrl: string, path = '/import') =>
    app.request(path, {
      method: 'POST',
      body: JSON.stringify({ source_url: sourceUrl }),
      headers: { 'content-type': 'application/json' },
    });

  it('answers a refused address with 422 url_not_allowed naming the reason and the field', async () => {
    const response = await post(`http://2130706433:${target.port}/leads.csv`);
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const problem = await response.json();
    expect(problem).toMatchObject({ status: 422, code: 'url_not_allowed' });
    expect(problem.errors).toEqual([
      { field: 'source_url', code: 'address_not_allowed', message: expect.stringContaining('loopback') },
    ]);
    expect(target.connections).toBe(0);
  });

  it('answers a failed fetch with 422 url_fetch_failed naming the reason', async () => {
    const response = await post(`${target.origin}/page`, '/import-local');
    expect(response.status).toBe(422);
    const problem = await response.json();
    expect(problem).toMatchObject({
      code: 'url_fetch_failed',
      errors: [{ field: 'source_url', code: 'unsupported_media_type' }],
    });
    expect(target.requests).toHaveLength(1);
  });

  it('answers a URL with another scheme with 422 url_not_allowed', async () => {
    const problem = await (await post('file:///etc/passwd')).json();
    expect(problem).toMatchObject({ code: 'url_not_allowed', errors: [{ code: 'url_scheme_not_allowed' }] });
  });

  it('leaves any other error to become a 500', async () => {
    const response = await app.request('/broken');
    expect(response.status).toBe(500);
    expect((await response.json()).code).toBe('internal');
  });
});
