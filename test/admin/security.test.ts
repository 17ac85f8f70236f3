// How the panel is served: security headers, content types and caching on the pages and every asset,
// no inline script in the HTML, the token kept out of cookies and URLs (the only cookie is the panel session's
// httpOnly one), nothing secret in the logs.
import { Writable } from 'node:stream';
import type { Browser } from 'playwright-core';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPages } from '../../src/admin/routes.ts';
import { panelContentSecurityPolicy } from '../../src/http/security-headers.ts';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createServices } from '../../src/services.ts';
import { createTestApp, listen, type SignupResult, type TestApp } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { sharedBrowser, releaseBrowser, openPage, signInThroughForm, unexpectedProblems } from './helpers/browser.ts';

let t: TestApp;
let owner: SignupResult;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signup();
});
afterAll(async () => t?.close());

const pages: readonly string[] = adminPages;

function expectSecurityHeaders(res: Response): void {
  expect(res.headers.get('content-security-policy')).toBe(panelContentSecurityPolicy);
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
}

async function shell(): Promise<string> {
  return (await t.request('/admin')).text();
}

/** Every file the panel loads: what the HTML links, and what the modules import, transitively. */
async function assetUrls(): Promise<string[]> {
  const html = await shell();
  const found = new Set([...html.matchAll(/(?:src|href)="(\/admin\/assets\/[^"]+)"/g)].map((m) => m[1]));
  const queue = [...found].filter((u) => u.endsWith('.js'));
  while (queue.length) {
    const url = queue.pop()!;
    const source = await (await t.request(url)).text();
    for (const m of source.matchAll(/from '(\.\/[^']+)'/g)) {
      const next = new URL(m[1], `http://x${url}`).pathname;
      if (!found.has(next)) {
        found.add(next);
        queue.push(next);
      }
    }
  }
  return [...found].sort();
}

describe('admin panel: serving and headers', () => {
  it.each(pages)('serves %s as HTML with the security headers, revalidated on every visit', async (path) => {
    const res = await t.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('etag')).toBeTruthy();
    expectSecurityHeaders(res);
  });

  it('has a policy without inline scripts or styles and forbids framing', () => {
    const directives = Object.fromEntries(
      panelContentSecurityPolicy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]),
    );
    expect(directives['script-src']).toBe("'self'");
    expect(directives['style-src']).toBe("'self'");
    expect(directives['frame-ancestors']).toBe("'none'");
    expect(directives['base-uri']).toBe("'none'");
    expect(panelContentSecurityPolicy).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it('serves the panel as one script bundle with the generated SDK and its source map, nothing imported from elsewhere', async () => {
    const urls = await assetUrls();
    expect(urls.filter((u) => u.endsWith('.js'))).toHaveLength(1);
    const script = await (await t.request(urls.find((u) => u.endsWith('/app.js'))!)).text();
    // No import statement (at a statement's start) and no dynamic import: the page loads this one file.
    expect(script.match(/(?:^|[;}\n])\s*import\b\s*(?:[{*"']|[\w$]+\s*from)|\bimport\(/)?.[0]).toBeUndefined();
    // No other origin: the only absolute URLs are SVG's namespace, example.com placeholders in form fields, and the
    // https:// the knowledge form puts before an address typed without a scheme.
    expect(script.match(/https?:\/\/(?!www\.w3\.org\/|[\w.-]*example\.com\/|\$\{)[^"'`\s]*/)?.[0]).toBeUndefined();
    expect(script).toContain('/api/v1/users/me');
    const map = await t.request(urls.find((u) => u.endsWith('/app.js'))!.replace(/app\.js$/, 'app.js.map'));
    expect(map.status).toBe(200);
    expect(map.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await map.json()).sources.some((s: string) => s.endsWith('src/generated/sdk.ts'))).toBe(true);
  });

  it('has no inline script, inline handler or style attribute in the HTML', async () => {
    const html = await shell();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/admin\/assets\/[0-9a-f]{12}\/[a-z-]+\.js"/);
      expect(attributes).toContain('type="module"');
      expect(body.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/\sstyle\s*=/i);
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/javascript:/i);
  });

  it('serves every asset with its content type, the security headers and long-lived caching', async () => {
    const urls = await assetUrls();
    expect(urls.some((u) => u.endsWith('/app.js'))).toBe(true);
    expect(urls.some((u) => u.endsWith('/styles.css'))).toBe(true);
    expect(urls.some((u) => u.endsWith('/app.css'))).toBe(true);
    for (const url of urls) {
      const res = await t.request(url);
      expect(res.status, url).toBe(200);
      const type = url.endsWith('.js')
        ? 'text/javascript; charset=utf-8'
        : url.endsWith('.css')
          ? 'text/css; charset=utf-8'
          : 'image/svg+xml';
      expect(res.headers.get('content-type'), url).toBe(type);
      expect(res.headers.get('cache-control'), url).toBe('public, max-age=31536000, immutable');
      expectSecurityHeaders(res);
    }
  });

  it('answers a conditional request with 304 and a HEAD request without a body', async () => {
    const first = await t.request('/admin');
    const etag = first.headers.get('etag')!;
    const again = await t.request('/admin', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expectSecurityHeaders(again);
    const head = await t.request('/admin/members', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('serves an asset asked for under an older build, but only revalidated', async () => {
    const res = await t.request('/admin/assets/000000000000/styles.css');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers an unknown asset with 404 and another method with 405, as problem+json', async () => {
    const missing = await t.request('/admin/assets/000000000000/secret.txt');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    const post = await t.request('/admin', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(((await post.json()) as { code: string }).code).toBe('method_not_allowed');
  });

  it('redirects /admin/ to /admin', async () => {
    const res = await t.request('/admin/');
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe('/admin');
  });
});

describe('admin panel: in the browser', () => {
  let browser: Browser;
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    server = await listen(t.app);
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    await releaseBrowser(browser);
    await server?.close();
  });

  it('loads every page with no console error and no CSP violation', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/join');
    await page.getByRole('button', { name: 'Join workspace' }).waitFor();
    await page.goto('/admin');
    await signInThroughForm(page, owner.email, owner.password);
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('table').waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Approvals' }).click();
    await page.getByText('Nothing to approve').waitFor();
    await page.getByRole('link', { name: 'Sent messages' }).click();
    await page.getByText('No messages yet').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('reports a CSP violation when a page tries to run inline script', async () => {
    // Guards the guard: the watcher the other tests rely on does see violations.
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin');
    await page
      .evaluate(() => {
        const s = document.createElement('script');
        s.textContent = 'window.inlineRan = true';
        document.head.append(s);
      })
      .catch(() => undefined);
    await expect.poll(() => problems.some((p) => p.startsWith('csp:'))).toBe(true);
    expect(await page.evaluate(() => 'inlineRan' in window)).toBe(false);
    await context.close();
  });

  it('refuses an HTML string as an iframe srcdoc, so the HTML part of a message can only be shown as source', async () => {
    const { page, context } = await openPage(browser, server.url);
    await page.goto('/admin');
    const outcome = await page.evaluate(() => {
      const frame = document.createElement('iframe');
      frame.setAttribute('sandbox', '');
      try {
        frame.srcdoc = '<p>hello</p>';
        return 'assigned';
      } catch (error) {
        return (error as Error).name;
      }
    });
    expect(outcome).toBe('TypeError');
    await context.close();
  });

  it('keeps the token out of cookies and URLs and sends it only as a bearer header to the API and the session start', async () => {
    const { page, context, problems } = await openPage(browser, server.url);
    const requests: Array<{ url: string; authorization?: string }> = [];
    page.on('request', (r) => requests.push({ url: r.url(), authorization: r.headers().authorization }));
    await page.goto('/admin');
    await signInThroughForm(page, owner.email, owner.password);
    await page.getByText('No API keys yet').waitFor();
    const token = await page.evaluate(() => Object.values(sessionStorage)[0]);
    expect(token).toMatch(/^ey/);
    // The one cookie is the panel session's: an opaque token, httpOnly (scripts cannot read it), sent only to /admin.
    const cookies = await context.cookies();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({ name: 'admin_session', path: '/admin', httpOnly: true, sameSite: 'Strict' });
    expect(cookies[0].value).not.toContain(token);
    expect(cookies[0].value).not.toMatch(/^ey/);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(page.url()).not.toContain(token);
    expect(requests.every((r) => !r.url.includes(token))).toBe(true);
    const apiCalls = requests.filter(
      (r) => new URL(r.url).pathname.startsWith('/api/v1/') && !r.url.endsWith('/login'),
    );
    expect(apiCalls.length).toBeGreaterThan(0);
    expect(apiCalls.every((r) => r.authorization === `Bearer ${token}`)).toBe(true);
    // Besides the API, the JWT goes once to POST /admin/session, which starts the panel session from it.
    const elsewhere = requests.filter((r) => !new URL(r.url).pathname.startsWith('/api/') && r.authorization);
    expect(elsewhere.map((r) => new URL(r.url).pathname)).toEqual(['/admin/session']);
    expect(elsewhere[0].authorization).toBe(`Bearer ${token}`);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });
});

describe('admin panel: logs', () => {
  it('logs method, path and status for the panel and its API calls, and no credential', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const db = await createTestDatabase();
    const config = loadConfig({ LOG_LEVEL: 'debug' });
    const services = await createServices({
      db,
      config,
      log: pino({ level: 'debug' }, sink),
      argon2Params: { memoryCost: 1024, timeCost: 1, parallelism: 1, outputLen: 32 },
    });
    const app = createApp(services.deps);
    try {
      const json = (body: unknown, token?: string) => ({
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      const password = 'a very secret password';
      const signup = await app.request(
        '/api/v1/users/signup',
        json({ email: 'logs@example.com', password, name: 'L', workspace_name: 'W' }),
      );
      const token = ((await signup.json()) as { login: { access_token: string } }).login.access_token;
      await app.request('/admin/api-keys');
      const created = await app.request('/api/v1/api-keys', json({ name: 'log test' }, token));
      const key = ((await created.json()) as { key: string }).key;
      await app.request('/api/v1/users/me', { headers: { Authorization: `Bearer ${key}` } });
      await app.request('/api/v1/users/login', json({ email: 'logs@example.com', password: 'wrong password!' }));
      const log = lines.join('');
      expect(log).toContain('"path":"/admin/api-keys"');
      expect(log).toContain('"path":"/api/v1/api-keys"');
      for (const secret of [password, 'wrong password!', token, key, key.split('_')[2]])
        expect(log).not.toContain(secret);
    } finally {
      await services.close();
      await db.close();
    }
  });
});
