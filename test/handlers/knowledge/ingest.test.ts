// Knowledge ingestion through the real app with jobs running, from a local website (so these apps turn
// the OUTBOUND_ALLOW_PRIVATE switch on): a page or a same-site crawl becomes searchable chunks; robots.txt,
// include/exclude paths and canonical URLs are respected; a refresh replaces the content at once and a
// failed one keeps the last good content; every bad input ends as a 4xx or a clear `failed`, never a hang.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { startSite, type Site } from './site.ts';

const env = {
  OUTBOUND_ALLOW_PRIVATE: 'true',
  KNOWLEDGE_CRAWL_DELAY_MS: '0',
  KNOWLEDGE_PAGE_TIMEOUT_MS: '1500',
  KNOWLEDGE_MAX_PAGE_BYTES: '1000000',
  OUTBOUND_USER_AGENT: 'service-mcp-test/1.0 (+https://service.example/bot)',
};

let t: TestApp;
let site: Site;
let owner: SignupResult;

beforeAll(async () => {
  [t, site] = await Promise.all([createTestApp({ jobs: 'work', env }), startSite()]);
  owner = await t.signup();
});
afterAll(async () => {
  await site?.close();
  await t?.close();
});

interface Op {
  id: string;
  status: string;
  resource: { type: string; id: string } | null;
  error: { code: string; detail: string; status: number } | null;
}

async function ingest(body: Record<string, unknown>, token = owner.token): Promise<Op> {
  const res = await t.request('/api/v1/knowledge/sources', { method: 'POST', token, json: body });
  expect(res.status, await res.clone().text()).toBe(202);
  expect(res.headers.get('location')).toMatch(/^\/api\/v1\/operations\/op_/);
  return finish((await res.json()) as Op, token);
}

async function finish(op: Op, token = owner.token): Promise<Op> {
  let current = op;
  while (!['succeeded', 'failed', 'cancelled'].includes(current.status)) {
    current = (await (await t.request(`/api/v1/operations/${op.id}?wait_seconds=20`, { token })).json()) as Op;
  }
  return current;
}

const get = async (path: string, token = owner.token) => (await t.request(path, { token })).json();
const search = (q: string, extra = '', token = owner.token) =>
  get(`/api/v1/knowledge/search?query=${encodeURIComponent(q)}${extra}`, token);

describe('ingesting one page', () => {
  it('makes the page searchable, with headings, page URL and a highlighted snippet', async () => {
    const op = await ingest({ url: `${site.url}/` });
    expect(op.status).toBe('succeeded');
    expect(op.resource?.type).toBe('knowledge_source');
    const source = await get(`/api/v1/knowledge/sources/${op.resource?.id}`);
    expect(source).toMatchObject({
      status: 'ready',
      pages_fetched: 1,
      title: 'Acme Rockets — reusable rockets for small teams',
      last_error: null,
    });
    expect(source.chunks).toBeGreaterThan(0);
    const chunks = await get(`/api/v1/knowledge/sources/${source.id}/chunks`);
    const text = chunks.data.map((c: any) => c.text).join('\n');
    expect(text).toContain('lands itself on a pad the size of a tennis court');
    expect(text).not.toContain('Cookie settings');
    expect(chunks.data.some((c: any) => c.heading_path.includes('Why teams choose us'))).toBe(true);
    const hits = await search('booster comes home', `&source_ids=${source.id}`);
    expect(hits.data[0]).toMatchObject({ source_id: source.id, page_url: `${site.url}/` });
    expect(hits.data[0].snippet).toMatch(/\*\*booster\*\*/i);
    const events = await get('/api/v1/events?type=knowledge_source.*');
    expect(events.data.map((e: any) => e.type)).toContain('knowledge_source.ready');
  });

  it('ingests Markdown as it is', async () => {
    const op = await ingest({ url: `${site.url}/notes.md` });
    expect(op.status).toBe('succeeded');
    const hits = await search('methane oxygen');
    expect(hits.data[0].heading_path).toEqual(['Launch notes', 'Fuel']);
  });
});

describe('crawling a site', () => {
  it('follows same-site links breadth-first, obeys robots.txt and exclude_paths, and identifies itself', async () => {
    const before = site.requests.length;
    const op = await ingest({ url: `${site.url}/`, max_pages: 10, exclude_paths: ['/legal'] });
    expect(op.status).toBe('succeeded');
    const source = await get(`/api/v1/knowledge/sources/${op.resource?.id}`);
    const fetched = site.requests.slice(before).map((r) => r.path);
    expect(fetched).toContain('/robots.txt');
    expect(fetched).toEqual(expect.arrayContaining(['/', '/about', '/blog/post-1', '/pricing']));
    expect(fetched).not.toContain('/private/secret');
    expect(fetched).not.toContain('/legal');
    // /pricing?utm_source=home and /pricing are one page.
    expect(fetched.filter((p) => p === '/pricing')).toHaveLength(1);
    expect(source.pages_fetched).toBe(4);
    expect(site.requests.slice(before).every((r) => r.userAgent === env.OUTBOUND_USER_AGENT)).toBe(true);
    const hits = await search('night landing', `&source_ids=${source.id}`);
    expect(hits.data[0].page_url).toBe(`${site.url}/blog/post-1`);
    expect((await search('payroll')).data).toEqual([]);
  });

  it('fails when robots.txt disallows the start page, saying so', async () => {
    const strictSite = await startSite({ robots: 'User-agent: *\nDisallow: /' });
    try {
      const op = await ingest({ url: `${strictSite.url}/` });
      expect(op.status).toBe('failed');
      expect(op.error).toMatchObject({ code: 'robots_disallowed' });
      expect(strictSite.requests.map((r) => r.path)).toEqual(['/robots.txt']);
    } finally {
      await strictSite.close();
    }
  });
  it.each([
    ['answers 503', { status: 503 }, 'it answered 503', undefined],
    ['does not answer in time', { hang: true }, 'no complete answer within 1500 ms', 'timeout'],
  ])(
    'fails saying robots.txt could not be read, not that it disallows, when it %s',
    async (_, robots, says, reason) => {
      const downSite = await startSite();
      downSite.set('/robots.txt', robots);
      try {
        const op = await ingest({ url: `${downSite.url}/` });
        expect(op.status).toBe('failed');
        expect(op.error).toMatchObject({ code: 'url_fetch_failed', status: 422 });
        expect(op.error?.detail).toContain(`${downSite.url}/robots.txt could not be read`);
        expect(op.error?.detail).toContain(says);
        expect(op.error?.detail).toContain('RFC 9309');
        if (reason) expect((op.error as unknown as { errors: unknown[] }).errors).toMatchObject([{ code: reason }]);
        expect(downSite.requests.map((r) => r.path)).toEqual(['/robots.txt']);
      } finally {
        await downSite.close();
      }
    },
  );
});

describe('refreshing', () => {
  it('replaces the content at once, and a failed refresh keeps the last good content', async () => {
    site.set('/pricing', {
      html: '<html><head><title>Pricing</title></head><body><main><h1>Pricing</h1><p>Suborbital hops cost 300,000 dollars each.</p></main></body></html>',
    });
    const op = await ingest({ url: `${site.url}/pricing` });
    const id = op.resource?.id as string;
    expect((await search('suborbital hops', `&source_ids=${id}`)).data).toHaveLength(1);

    site.set('/pricing', {
      html: '<html><head><title>Pricing</title></head><body><main><h1>Pricing</h1><p>Orbital tugs now cost 90,000 dollars each.</p></main></body></html>',
    });
    const refreshed = await t.request(`/api/v1/knowledge/sources/${id}/refresh`, {
      method: 'POST',
      token: owner.token,
    });
    expect(refreshed.status).toBe(202);
    expect((await finish((await refreshed.json()) as Op)).status).toBe('succeeded');
    expect((await search('orbital tugs', `&source_ids=${id}`)).data).toHaveLength(1);
    expect((await search('suborbital hops', `&source_ids=${id}`)).data).toHaveLength(0);

    site.set('/pricing', { status: 500 });
    const failing = await t.request(`/api/v1/knowledge/sources/${id}/refresh`, { method: 'POST', token: owner.token });
    const failed = await finish((await failing.json()) as Op);
    expect(failed.status).toBe('failed');
    expect(failed.error?.detail).toContain('500');
    const source = await get(`/api/v1/knowledge/sources/${id}`);
    expect(source).toMatchObject({ status: 'failed' });
    expect(source.last_error).toContain('500');
    expect((await search('orbital tugs', `&source_ids=${id}`)).data).toHaveLength(1);
    site.set('/pricing', { html: undefined });
  });

  it('refuses a second fetch of a source while one is queued or running', async () => {
    site.set('/slow-start', {
      html: '<html><body><main><p>Slow page about heat shields and tiles.</p></main></body></html>',
    });
    const res = await t.request('/api/v1/knowledge/sources', {
      method: 'POST',
      token: owner.token,
      json: { url: `${site.url}/slow-start` },
    });
    const op = (await res.json()) as Op;
    const again = await t.request(`/api/v1/knowledge/sources/${op.resource?.id}/refresh`, {
      method: 'POST',
      token: owner.token,
    });
    expect([202, 409]).toContain(again.status);
    await finish(op);
  });
});

describe('a fetch that died', () => {
  it('does not leave its source stuck: a refresh long after is accepted', async () => {
    const op = await ingest({ url: `${site.url}/about` });
    const id = op.resource?.id as string;
    await t.db
      .sql`update knowledge_sources set status = 'fetching', updated_at = now() - interval '2 hours' where id = ${id}`;
    const res = await t.request(`/api/v1/knowledge/sources/${id}/refresh`, { method: 'POST', token: owner.token });
    expect(res.status).toBe(202);
    expect((await finish((await res.json()) as Op)).status).toBe('succeeded');
  });
});

describe('bad input ends as a 4xx or a clear failure', () => {
  it.each([
    ['a redirect loop', '/loop', 'url_fetch_failed'],
    ['a page that never ends', '/never-ends', 'url_fetch_failed'],
    ['a gzip bomb', '/bomb', 'url_fetch_failed'],
    ['a 404', '/missing', 'url_fetch_failed'],
    ['a page with no text', '/empty', 'knowledge_no_text'],
    ['an image', '/image', 'unsupported_media_type'],
  ])('%s (%s) fails the operation with %s', async (_, path, code) => {
    const op = await ingest({ url: `${site.url}${path}` });
    expect(op.status).toBe('failed');
    expect(op.error?.code).toBe(code);
    const source = await get(`/api/v1/knowledge/sources/${op.resource?.id}`);
    expect(source.status).toBe('failed');
    expect(source.last_error).toBeTruthy();
  });

  it('refuses a URL over 2 KB and a non-http scheme before anything is fetched', async () => {
    const long = await t.request('/api/v1/knowledge/sources', {
      method: 'POST',
      token: owner.token,
      json: { url: `${site.url}/${'a'.repeat(2100)}` },
    });
    expect(long.status).toBe(400);
    const ftp = await t.request('/api/v1/knowledge/sources', {
      method: 'POST',
      token: owner.token,
      json: { url: 'ftp://example.com/file' },
    });
    expect(ftp.status).toBe(422);
    expect(((await ftp.json()) as { code: string }).code).toBe('url_not_allowed');
  });
});

describe('workspace isolation', () => {
  it('keeps sources, chunks and search to their workspace', async () => {
    const op = await ingest({ url: `${site.url}/about` });
    const id = op.resource?.id as string;
    const stranger = await t.signup();
    expect((await t.request(`/api/v1/knowledge/sources/${id}`, { token: stranger.token })).status).toBe(404);
    expect((await t.request(`/api/v1/knowledge/sources/${id}/chunks`, { token: stranger.token })).status).toBe(404);
    expect(
      (await t.request(`/api/v1/knowledge/search?query=boring&source_ids=${id}`, { token: stranger.token })).status,
    ).toBe(404);
    expect((await search('launch should be boring', '', stranger.token)).data).toEqual([]);
    expect(
      (await t.request(`/api/v1/knowledge/sources/${id}`, { method: 'DELETE', token: stranger.token })).status,
    ).toBe(404);
    expect((await t.request(`/api/v1/knowledge/sources/${id}`, { method: 'DELETE', token: owner.token })).status).toBe(
      200,
    );
    expect((await search('launch should be boring', `&source_ids=${id}`)).data ?? []).toEqual([]);
  });
});

describe('with the private-address switch off (the default)', () => {
  let strict: TestApp;
  let admin: SignupResult;
  beforeAll(async () => {
    strict = await createTestApp({
      jobs: 'work',
      env: { KNOWLEDGE_CRAWL_DELAY_MS: '0', KNOWLEDGE_PAGE_TIMEOUT_MS: '1500' },
    });
    admin = await strict.signup();
  });
  afterAll(async () => strict?.close());

  it.each([
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://0x7f.0.0.1/',
    'http://0177.0.0.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::127.0.0.1]/',
    'http://0.0.0.0/',
    'http://10.0.0.8/',
    'http://169.254.169.254/latest/meta-data',
  ])('refuses %s with 422 url_not_allowed', async (url) => {
    const res = await strict.request('/api/v1/knowledge/sources', {
      method: 'POST',
      token: admin.token,
      json: { url },
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { code: string }).code).toBe('url_not_allowed');
  });

  it('fails a host name that resolves to loopback at fetch time, naming the reason', async () => {
    const res = await strict.request('/api/v1/knowledge/sources', {
      method: 'POST',
      token: admin.token,
      json: { url: `http://localhost:${new URL(site.url).port}/` },
    });
    expect(res.status).toBe(202);
    let op = (await res.json()) as Op;
    while (!['succeeded', 'failed'].includes(op.status))
      op = (await (
        await strict.request(`/api/v1/operations/${op.id}?wait_seconds=20`, { token: admin.token })
      ).json()) as Op;
    expect(op.status).toBe('failed');
    expect(op.error?.code).toBe('url_not_allowed');
    expect(op.error?.detail).toMatch(/address/);
  });
});
