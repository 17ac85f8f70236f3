// /docs in Chromium: the API reference loads everything from this service (no font, proxy, AI or sharing
// service of Scalar's is reached), shows none of Scalar's hosted-product buttons, and shows the service's
// version.
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBrowser, releaseBrowser } from '../admin/helpers/browser.ts';
import { createTestApp, listen, type TestApp } from '../helpers/app.ts';

const contract = yaml.load(readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8')) as {
  info: { version: string };
};

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let browser: Browser;
beforeAll(async () => {
  t = await createTestApp();
  server = await listen(t.app);
  browser = await sharedBrowser();
});
afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await t?.close();
});

describe('GET /docs in a browser', () => {
  it('loads every asset from this service and sends no request to any other host', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const requested: string[] = [];
    context.on('request', (request) => requested.push(request.url()));
    // Anything bound elsewhere is refused before it leaves, so the test never depends on the network.
    await context.route(
      (url) => url.origin !== server.url,
      (route) => route.abort(),
    );
    await page.goto(`${server.url}/docs`, { waitUntil: 'networkidle' });
    await page.getByText('Check service health').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(requested.filter((url) => !url.startsWith(`${server.url}/`) && !url.startsWith('data:'))).toEqual([]);
    expect(requested).toEqual(expect.arrayContaining([`${server.url}/docs/scalar.js`, `${server.url}/openapi.json`]));
    await context.close();
  });

  it("shows the service's version and none of Scalar's hosted-product buttons", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/docs`, { waitUntil: 'networkidle' });
    // The version badge sits beside the title once the document has rendered.
    await page.getByText(`v${contract.info.version}`, { exact: true }).waitFor();
    await page.getByText('Download OpenAPI Document').first().waitFor();
    const text = await page.locator('body').innerText();
    for (const button of ['Ask AI', 'Deploy', 'Share', 'Configure', 'Developer Tools']) {
      expect(await page.getByRole('button', { name: button, exact: true }).count(), button).toBe(0);
      expect(text.split('\n'), button).not.toContain(button);
    }
    await page.close();
  });

  it('has an icon', async () => {
    const page = await browser.newPage();
    const icon = await page.goto(`${server.url}/favicon.ico`);
    expect([icon?.status(), icon?.headers()['content-type']]).toEqual([200, 'image/x-icon']);
    await page.close();
  });
});
