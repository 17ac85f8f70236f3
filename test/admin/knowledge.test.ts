// Outreach → Knowledge in a real browser against the real app with its jobs running, fetching from a small local
// website (so the app turns the OUTBOUND_ALLOW_PRIVATE switch on, as the knowledge handler tests do): a URL is
// ingested with its progress followed to a ready source and its pages, the knowledge is searched with the
// matched words marked, a source is refreshed and deleted (after a confirmation), a refused address is
// explained in the form, and the empty and error states read well.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, listen, type SignupResult, type TestApp } from '../helpers/app.ts';
import { startSite, type Site } from '../handlers/knowledge/site.ts';
import {
  sharedBrowser,
  releaseBrowser,
  openPage,
  screenshotPath,
  signInThroughForm,
  unexpectedProblems,
  type AdminPage,
} from './helpers/browser.ts';

const env = { OUTBOUND_ALLOW_PRIVATE: 'true', KNOWLEDGE_CRAWL_DELAY_MS: '0', KNOWLEDGE_PAGE_TIMEOUT_MS: '1500' };

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let site: Site;
let browser: Browser;
let owner: SignupResult;

beforeAll(async () => {
  [t, site, browser] = await Promise.all([createTestApp({ jobs: 'work', env }), startSite(), sharedBrowser()]);
  server = await listen(t.app);
  owner = await t.signup({ name: 'Ada Lovelace', workspace_name: 'Acme Rockets' });
  site.set('/markup', {
    html: `<!doctype html><html><head><title>Markup notes</title></head><body><main><h1>Markup notes</h1>
<p>Our telemetry dashboard shows &lt;img src=x onerror=alert(1)&gt; as plain text, never as markup.</p></main></body></html>`,
  });
}, 60_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await site?.close();
  await t?.close();
});

interface Op {
  id: string;
  status: string;
  resource: { id: string } | null;
}

/** A source made through the API, its ingest finished. */
async function ingested(url: string, maxPages = 1, token = owner.token): Promise<any> {
  const res = await t.request('/api/v1/knowledge/sources', {
    method: 'POST',
    token,
    json: { url, max_pages: maxPages },
  });
  expect(res.status, await res.clone().text()).toBe(202);
  let op = (await res.json()) as Op;
  while (!['succeeded', 'failed', 'cancelled'].includes(op.status))
    op = (await (await t.request(`/api/v1/operations/${op.id}?wait_seconds=20`, { token })).json()) as Op;
  expect(op.status).toBe('succeeded');
  return (await t.request(`/api/v1/knowledge/sources/${op.resource?.id}`, { token })).json();
}

async function openKnowledge(user = owner): Promise<AdminPage> {
  const admin = await openPage(browser, server.url);
  await admin.page.goto('/admin/knowledge');
  await signInThroughForm(admin.page, user.email, user.password);
  await admin.page.getByRole('heading', { name: 'Knowledge', level: 1 }).waitFor();
  return admin;
}

const sources = (page: Page) => page.getByRole('region', { name: 'Sources' });
const row = (page: Page, sourceId: string) => sources(page).locator(`tr[data-source-id="${sourceId}"]`);

describe('admin panel: knowledge', () => {
  it('shows the empty state to a workspace without knowledge, pointing at the ingest form', async () => {
    const newcomer = await t.signup();
    const { page, context, problems } = await openKnowledge(newcomer);
    await page.getByText('No knowledge yet').waitFor();
    await page.getByText('Ingest your website — the home page').waitFor();
    expect(await page.getByRole('search', { name: 'Knowledge' }).isVisible()).toBe(false);
    expect(await page.getByRole('link', { name: 'Knowledge' }).getAttribute('aria-current')).toBe('page');
    await page.screenshot({ path: screenshotPath('knowledge-empty'), fullPage: true });
    await page.getByRole('button', { name: 'Ingest your website' }).click();
    expect(await page.getByLabel('Website or page URL').evaluate((el) => el === document.activeElement)).toBe(true);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('ingests a URL, follows its progress to a ready source, and shows the pages it fetched', async () => {
    const { page, context, problems } = await openKnowledge();
    await page.getByLabel('Website or page URL').fill(`${site.url}/`);
    await page.getByLabel('Pages to fetch').fill('3');
    // Every progress line the form shows, however briefly.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        const text = document.querySelector('.knowledge-progress-text')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document.querySelector('.knowledge-form') as Node, { childList: true, subtree: true });
    });
    await page.getByRole('button', { name: 'Ingest', exact: true }).click();

    const progress = page.getByRole('status').filter({ hasText: 'Ingested' });
    await progress.waitFor({ timeout: 30_000 });
    expect(await progress.textContent()).toContain('Acme Rockets — reusable rockets for small teams: 3 pages');
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    expect(seen[0]).toBe('Waiting to start…');
    expect(seen.at(-1)).toBe('Fetching pages: 3 of up to 3');
    const tableRow = sources(page).locator('tbody tr').first();
    expect(await tableRow.getAttribute('data-status')).toBe('ready');
    await tableRow.getByText('Ready', { exact: true }).waitFor();
    expect(await tableRow.locator('td').nth(1).textContent()).toBe('3');
    expect(Number(await tableRow.locator('td').nth(2).textContent())).toBeGreaterThan(2);
    expect(await page.getByLabel('Website or page URL').inputValue()).toBe('');

    await progress.getByRole('button', { name: 'View pages' }).click();
    const dialog = page.getByRole('dialog', { name: 'Acme Rockets — reusable rockets for small teams' });
    for (const title of [
      'Acme Rockets — reusable rockets for small teams',
      'About Acme Rockets',
      'Launch diary: flight 12',
    ])
      await dialog.getByRole('region', { name: title }).waitFor();
    await dialog.getByText('lands itself on a pad the size of a tennis court').waitFor();
    expect(await dialog.getByRole('link', { name: 'About Acme Rockets' }).getAttribute('href')).toBe(
      `${site.url}/about`,
    );
    await page.screenshot({ path: screenshotPath('knowledge-source') });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('searches the knowledge and shows matching passages with their page, the matched words marked', async () => {
    await ingested(`${site.url}/blog/post-1`);
    await ingested(`${site.url}/markup`);
    const { page, context, problems } = await openKnowledge();
    const search = page.getByRole('search', { name: 'Knowledge' });
    await search.getByLabel('Search knowledge').fill('night landing');
    await search.getByRole('button', { name: 'Search' }).click();
    const hits = page.getByRole('list', { name: 'Matching passages' }).getByRole('listitem');
    await hits.first().waitFor();
    const first = hits.first();
    expect(await first.getByRole('link').textContent()).toBe('Launch diary: flight 12');
    expect(await first.getByRole('link').getAttribute('href')).toBe(`${site.url}/blog/post-1`);
    expect((await first.locator('mark').allTextContents()).map((m) => m.toLowerCase())).toEqual(
      expect.arrayContaining(['night', 'landing']),
    );
    const snippets = await hits.locator('.knowledge-snippet').allTextContents();
    expect(new Set(snippets).size).toBe(snippets.length);
    await page.screenshot({ path: screenshotPath('knowledge'), fullPage: true });

    // A page's text that looks like markup is shown as the text it is.
    await search.getByLabel('Search knowledge').fill('telemetry dashboard');
    await search.getByRole('button', { name: 'Search' }).click();
    const markup = hits.filter({ hasText: 'Markup notes' });
    await markup.waitFor();
    expect(await markup.locator('.knowledge-snippet').textContent()).toContain('<img src=x onerror=alert(1)>');
    expect(await markup.locator('img').count()).toBe(0);
    expect((await markup.locator('mark').allTextContents()).map((m) => m.toLowerCase())).toEqual([
      'telemetry',
      'dashboard',
    ]);

    await search.getByLabel('Search knowledge').fill('xylophone');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No passages match “xylophone”.').waitFor();
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('refreshes a source: its row follows the fetch and the new content is searchable', async () => {
    site.set('/pricing', {
      html: '<!doctype html><html><head><title>Pricing</title></head><body><main><h1>Pricing</h1><p>Launch slots cost 15,000 dollars per kilogram.</p></main></body></html>',
    });
    const source = await ingested(`${site.url}/pricing`);
    site.set('/pricing', {
      html: '<!doctype html><html><head><title>Pricing</title></head><body><main><h1>Pricing</h1><p>Weekend launches now include free champagne.</p></main></body></html>',
    });
    const { page, context, problems } = await openKnowledge();
    await row(page, source.id).getByRole('button', { name: 'Refresh Pricing' }).click();
    await page.getByText('Refreshed “Pricing”: 1 page').waitFor({ timeout: 30_000 });
    expect(await row(page, source.id).getAttribute('data-status')).toBe('ready');
    expect(await row(page, source.id).getByRole('button', { name: 'Refresh Pricing' }).isEnabled()).toBe(true);

    const search = page.getByRole('search', { name: 'Knowledge' });
    await search.getByLabel('Search knowledge').fill('champagne');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('list', { name: 'Matching passages' }).getByRole('link', { name: 'Pricing' }).waitFor();
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('deletes a source only after a confirmation; cancelling keeps it', async () => {
    const source = await ingested(`${site.url}/about`);
    const { page, context, problems } = await openKnowledge();
    const button = row(page, source.id).getByRole('button', { name: 'Delete About Acme Rockets' });
    await button.click();
    const confirm = page.getByRole('dialog', { name: 'Delete knowledge source?' });
    await confirm.getByText('will be deleted').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await row(page, source.id).count()).toBe(1);
    expect((await t.request(`/api/v1/knowledge/sources/${source.id}`, { token: owner.token })).status).toBe(200);

    await button.click();
    await confirm.getByRole('button', { name: 'Delete source' }).click();
    await page.getByText('Deleted “About Acme Rockets”.').waitFor();
    expect(await row(page, source.id).count()).toBe(0);
    expect((await t.request(`/api/v1/knowledge/sources/${source.id}`, { token: owner.token })).status).toBe(404);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows why the API refuses a URL inside the form, and starts nothing', async () => {
    const { page, context, problems } = await openKnowledge();
    await sources(page).locator('tbody tr').first().waitFor();
    const before = await sources(page).locator('tbody tr').count();
    const url = page.getByLabel('Website or page URL');
    await url.fill('http://169.254.169.254/latest/meta-data');
    await page.getByRole('button', { name: 'Ingest', exact: true }).click();
    const refusal = page.locator('.knowledge-form').getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/This URL cannot be ingested.*169\.254\.169\.254.*not allowed/);
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    await page.screenshot({ path: screenshotPath('knowledge-refused') });

    await url.fill('ftp://example.com/file');
    await page.getByRole('button', { name: 'Ingest', exact: true }).click();
    await refusal.filter({ hasText: 'ftp' }).waitFor();
    expect(await sources(page).locator('tbody tr').count()).toBe(before);
    expect(unexpectedProblems(problems, [422])).toEqual([]);
    await context.close();
  });

  it('shows why an accepted ingest failed, in the form and on the source’s row', async () => {
    const { page, context, problems } = await openKnowledge();
    await page.getByLabel('Website or page URL').fill(`${site.url}/missing`);
    await page.getByRole('button', { name: 'Ingest', exact: true }).click();
    const failure = page.locator('.knowledge-form').getByRole('alert').filter({ hasText: 'The ingest failed' });
    await failure.waitFor({ timeout: 30_000 });
    expect(await failure.textContent()).toContain(`${site.url}/missing`);
    const failed = sources(page).locator('tbody tr[data-status="failed"]').first();
    await failed.getByText('Failed', { exact: true }).waitFor();
    expect(await failed.locator('.knowledge-error').textContent()).toContain('/missing');
    expect(await page.getByLabel('Website or page URL').inputValue()).toBe(`${site.url}/missing`);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows an error with a way to try again when the sources cannot be loaded', async () => {
    const admin = await openPage(browser, server.url);
    const { page, context, problems } = admin;
    await page.route('**/api/v1/knowledge/sources?*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/problem+json',
        body: JSON.stringify({
          title: 'Service unavailable',
          detail: 'The database is not answering.',
          code: 'unavailable',
        }),
      }),
    );
    await page.goto('/admin/knowledge');
    await signInThroughForm(page, owner.email, owner.password);
    await page.getByText('The database is not answering.').waitFor();
    await page.unroute('**/api/v1/knowledge/sources?*');
    await page.getByRole('button', { name: 'Try again' }).click();
    await sources(page).locator('tbody tr').first().waitFor();
    expect(unexpectedProblems(problems, [503])).toEqual([]);
    await context.close();
  });

  it('keeps every row action visible at 390 px, the table scrolling inside its card', async () => {
    await ingested(`${site.url}/legal`);
    const { page, context, problems } = await openKnowledge();
    await page.setViewportSize({ width: 390, height: 800 });
    const first = sources(page).locator('tbody tr').first();
    await first.waitFor();
    // Nothing of the page itself (the shell's sidebar is not this page's) is wider than the main region.
    const overflowing = await page.evaluate(() => {
      const main = document.querySelector('main') as HTMLElement;
      const right = main.getBoundingClientRect().right;
      return [...main.querySelectorAll('*')]
        .filter((el) => !el.closest('.table-wrap') && el.getBoundingClientRect().right > right + 1)
        .map((el) => `${el.tagName}.${el.getAttribute('class')}`);
    });
    expect(overflowing).toEqual([]);
    await first.getByRole('button', { name: /^Delete / }).scrollIntoViewIfNeeded();
    expect(await first.getByRole('button', { name: /^Delete / }).isVisible()).toBe(true);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });
});
