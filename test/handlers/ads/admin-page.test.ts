// Ads → Campaigns in a real browser (Chromium) against the real app on a port: a campaign Meta
// disapproved shows its status and Meta's reason (live mode, the fake Graph API), and a sandbox campaign
// says it is the sandbox's and delivers nothing.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignupResult, TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import {
  sharedBrowser,
  releaseBrowser,
  openPage,
  screenshotPath,
  signInThroughForm,
  unexpectedProblems,
} from '../../admin/helpers/browser.ts';
import { syncAdCampaign } from '../../../src/handlers/ads/sync.ts';
import { startFakeGraph, type FakeGraph } from './fake-graph.ts';
import { campaignBody, confirmOf, connectMeta, json, runLaunchJob } from './ad-fixtures.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await sharedBrowser();
});
afterAll(async () => {
  await releaseBrowser(browser);
});

async function launchedCampaign(t: TestApp, owner: SignupResult, connectorId: string): Promise<string> {
  const draft = await json(
    t.request('/api/v1/ad-campaigns', {
      method: 'POST',
      token: owner.token,
      json: campaignBody(connectorId, { name: 'Spring launch' }),
    }),
    201,
  );
  await json(
    t.request(`/api/v1/ad-campaigns/${draft.id}/launch`, {
      method: 'POST',
      token: owner.token,
      json: confirmOf(draft),
    }),
    202,
  );
  await runLaunchJob(t, owner.workspaceId, draft.id);
  return draft.id;
}

async function openCampaign(url: string, owner: SignupResult, id: string) {
  const admin = await openPage(browser, url);
  await admin.page.goto('/admin/ad-campaigns');
  await signInThroughForm(admin.page, owner.email, owner.password);
  await admin.page.getByRole('link', { name: 'Spring launch' }).click();
  await admin.page.getByRole('heading', { name: 'Spring launch' }).waitFor();
  expect(new URL(admin.page.url()).search).toBe(`?campaign=${id}`);
  return admin;
}

describe('admin panel: an ad campaign in live mode', () => {
  let graph: FakeGraph;
  let t: TestApp;
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    graph = await startFakeGraph({ redirectUri: () => t.deps.connectors.redirectUri });
    ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', env: graph.env() }));
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
    await graph?.close();
  });

  it("shows a disapproved campaign with its status and Meta's reason", async () => {
    const owner = await t.signup();
    const started = await json(
      t.request('/api/v1/connectors/oauth', { method: 'POST', token: owner.token, json: { provider: 'meta_ads' } }),
      201,
    );
    expect((await fetch(await graph.consent(started.authorization_url))).status).toBe(200);
    const id = await launchedCampaign(t, owner, started.id);
    graph.review({ disapprove: 'Your ad uses before-and-after images.' });
    await syncAdCampaign(t.deps, owner.workspaceId, id);
    const admin = await openCampaign(server.url, owner, id);
    const details = admin.page.getByRole('definition').first();
    await expect(details.textContent()).resolves.toContain('Disapproved');
    await admin.page
      .getByRole('alert')
      .filter({ hasText: 'Disapproved by Meta: Your ad uses before-and-after images.' })
      .waitFor();
    expect(await admin.page.getByText('Sandbox', { exact: true }).count()).toBe(0);
    await admin.page.screenshot({ path: screenshotPath('ad-campaign-disapproved'), fullPage: true });
    expect(unexpectedProblems(admin.problems)).toEqual([]);
    await admin.context.close();
  });
});

describe('admin panel: an ad campaign in sandbox mode', () => {
  let t: TestApp;
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue' }));
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it('labels the campaign sandbox and says nothing is delivered', async () => {
    const owner = await t.signup();
    const connector = await connectMeta(t, owner.token);
    const id = await launchedCampaign(t, owner, connector.id);
    const admin = await openCampaign(server.url, owner, id);
    await admin.page
      .getByRole('status')
      .filter({ hasText: 'Sandbox: nothing was created at Meta and no ads are delivered' })
      .waitFor();
    await expect(admin.page.getByRole('definition').first().textContent()).resolves.toMatch(/Active.*Sandbox/);
    await admin.page.screenshot({ path: screenshotPath('ad-campaign-sandbox'), fullPage: true });
    expect(unexpectedProblems(admin.problems)).toEqual([]);
    await admin.context.close();
  });
});
