// Settings → Webhooks in a real browser against the real app with its jobs running: an endpoint at a local
// receiver is added (its signing secret shown once and verified by the Standard Webhooks library), a test is
// sent and its delivery appears with its attempt; a receiver answering 500 shows the failed attempt; an
// endpoint is edited and deleted after a confirmation. The receiver is on loopback, so the app allows
// private addresses (OUTBOUND_ALLOW_PRIVATE), as the webhook handler tests do.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, listen, type SignupResult, type TestApp } from '../helpers/app.ts';
import { startReceiver, type Receiver } from '../handlers/webhooks/receiver.ts';
import {
  isFocused,
  sharedBrowser,
  releaseBrowser,
  openPage,
  screenshotPath,
  signInThroughForm,
  unexpectedProblems,
} from './helpers/browser.ts';

const env = { OUTBOUND_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '1,1', OPERATION_WAIT_RECHECK_MS: '1000' };

let t: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let browser: Browser;
let receiver: Receiver | undefined;

beforeAll(async () => {
  t = await createTestApp({ jobs: 'work', env });
  server = await listen(t.app);
  browser = await sharedBrowser();
});

afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await t?.close();
});

interface Endpoint {
  id: string;
  url: string;
  description: string;
  status: string;
}

async function endpoints(token: string): Promise<Endpoint[]> {
  const res = await t.request('/api/v1/webhook-endpoints', { token });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Endpoint[] }).data;
}

async function createEndpoint(
  token: string,
  url: string,
  description: string,
): Promise<{ id: string; secret: string }> {
  const res = await t.request('/api/v1/webhook-endpoints', {
    method: 'POST',
    token,
    json: { url, description, event_types: ['api_key.*'] },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; secret: string };
}

async function signIn(page: Page, who: SignupResult): Promise<void> {
  await page.goto('/admin/webhooks');
  await signInThroughForm(page, who.email, who.password);
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Webhooks');
}

describe('admin panel: webhooks', () => {
  it('adds an endpoint at a local receiver, shows its signing secret once, and sends a test whose attempt appears', async () => {
    const owner = await t.signup({ name: 'Ada Lovelace', workspace_name: 'Analytical Engines' });
    receiver = await startReceiver();
    const { page, context, problems } = await openPage(browser, server.url);
    await signIn(page, owner);
    await page.getByText('No webhook endpoints yet').waitFor();
    await page.screenshot({ path: screenshotPath('webhooks-empty') });

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add webhook endpoint' });
    await dialog.getByLabel('URL', { exact: true }).fill(receiver.url);
    await dialog.getByLabel('Description (optional)').fill('CRM sync');
    await dialog.getByLabel('Event types').fill('api_key.*, member.added');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();

    const reveal = page.getByRole('dialog', { name: 'Save the signing secret' });
    await reveal.getByText('You will not see this secret again').waitFor();
    const secret = await reveal.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await reveal.getByRole('button', { name: 'Copy' }).click();
    await reveal.getByText('Copied to clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    receiver.useSecret(secret);
    await reveal.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /CRM sync/ });
    await row.getByText('Enabled').waitFor();
    await row.getByText('member.added').waitFor();
    expect(await page.content()).not.toContain(secret);

    await page.reload();
    await page.getByRole('row', { name: /CRM sync/ }).waitFor();
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'Send a test to CRM sync' }).click();
    await page.getByRole('status').filter({ hasText: 'Test message delivered' }).waitFor();
    const [got] = await receiver.waitFor(1);
    expect(got.verified).toMatchObject({ type: 'webhook.test' });

    const panel = page.getByRole('region', { name: 'Deliveries' });
    const delivery = panel.locator('tbody.delivery').filter({ hasText: 'webhook.test' });
    await delivery.getByText('Succeeded').waitFor();
    await delivery.getByText('HTTP 200').waitFor();
    await delivery.getByRole('button', { name: /Attempts of webhook.test/ }).click();
    const detail = delivery.locator('.delivery-detail');
    await detail.getByText('1 attempt').waitFor();
    await detail.getByText(got.headers['webhook-id']).waitFor();

    // An event the endpoint subscribes to arrives as another delivery.
    await t.createKey(owner.token, 'hooked');
    await receiver.waitFor(2);
    const keyDelivery = panel.locator('tbody.delivery').filter({ hasText: 'api_key.created' });
    await expect
      .poll(async () => {
        await panel.getByRole('button', { name: 'Refresh' }).click();
        await panel.locator('tbody.delivery').first().waitFor();
        return keyDelivery.getByText('Succeeded').count();
      })
      .toBe(1);
    await delivery.getByRole('button', { name: /Attempts of webhook.test/ }).click();
    await page.screenshot({ path: screenshotPath('webhooks'), fullPage: true });
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows the failed attempt when the receiver answers 500, and every attempt of a retried delivery', async () => {
    const owner = await t.signup();
    receiver = await startReceiver();
    await createEndpoint(owner.token, receiver.url, 'Flaky receiver');
    receiver.answer(500);
    const { page, context, problems } = await openPage(browser, server.url);
    await signIn(page, owner);
    await page.getByRole('button', { name: 'Send a test to Flaky receiver' }).click();
    await page.getByRole('alert').filter({ hasText: 'not accepted' }).waitFor();
    const delivery = page.getByRole('region', { name: 'Deliveries' }).locator('tbody.delivery').first();
    await delivery.getByText('Failed').waitFor();
    await delivery.getByText('HTTP 500').waitFor();
    await delivery.getByRole('button', { name: /Attempts of webhook.test/ }).click();
    const detail = delivery.locator('.delivery-detail');
    await detail.getByText('500', { exact: true }).waitFor();
    expect(await detail.locator('.failure').textContent()).toMatch(/500/);

    // A subscribed event whose first attempt fails is retried: both attempts are listed.
    receiver.answer(500);
    await t.createKey(owner.token, 'hooked');
    await receiver.waitFor(3);
    const panel = page.getByRole('region', { name: 'Deliveries' });
    const retried = panel.locator('tbody.delivery').filter({ hasText: 'api_key.created' });
    await expect
      .poll(async () => {
        await panel.getByRole('button', { name: 'Refresh' }).click();
        await panel.locator('tbody.delivery').first().waitFor();
        return retried.getByText('Succeeded').count();
      })
      .toBe(1);
    await retried.getByRole('button', { name: /Attempts of api_key.created/ }).click();
    const attempts = retried.locator('.attempts-table tbody tr');
    await expect.poll(() => attempts.allTextContents()).toHaveLength(2);
    expect(await attempts.nth(0).textContent()).toMatch(/#1.*500/);
    expect(await attempts.nth(1).textContent()).toMatch(/#2.*200/);
    await page.screenshot({ path: screenshotPath('webhooks-failed'), fullPage: true });
    // At 1280 px the row's last action is inside the table's box, not scrolled out of sight.
    const wrap = await page.locator('.table-wrap').first().boundingBox();
    const remove = await page.getByRole('button', { name: 'Delete Flaky receiver' }).boundingBox();
    expect((remove?.x ?? Infinity) + (remove?.width ?? 0)).toBeLessThanOrEqual((wrap?.x ?? 0) + (wrap?.width ?? 0));
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('edits, disables and enables an endpoint, shows a refused URL next to its field, and deletes only after a confirmation', async () => {
    const owner = await t.signup();
    await createEndpoint(owner.token, 'https://hooks.example.com/one', 'Old name');
    const { page, context, problems } = await openPage(browser, server.url);
    await signIn(page, owner);

    await page.getByRole('button', { name: 'Edit Old name' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit webhook endpoint' });
    await dialog.getByLabel('URL', { exact: true }).fill('ftp://hooks.example.com/one');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    const urlError = dialog.locator('.field-error[data-error-for="url"]');
    await urlError.waitFor();
    expect(await dialog.getByLabel('URL', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('URL', { exact: true }).fill('https://hooks.example.com/one');
    await dialog.getByLabel('Description (optional)').fill('New name');
    await dialog.getByLabel(/^Enabled/).uncheck();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /New name/ });
    await row.getByText('Disabled').waitFor();
    expect((await endpoints(owner.token))[0]).toMatchObject({ description: 'New name', status: 'disabled' });
    await page.getByRole('button', { name: 'Enable New name' }).click();
    await row.getByText('Enabled').waitFor();
    expect((await endpoints(owner.token))[0].status).toBe('enabled');

    await page.getByRole('button', { name: 'Delete New name' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete webhook endpoint?' });
    await expect.poll(() => isFocused(confirm.getByRole('button', { name: 'Cancel' }))).toBe(true);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await endpoints(owner.token)).toHaveLength(1);

    await page.getByRole('button', { name: 'Delete New name' }).click();
    await page
      .getByRole('dialog', { name: 'Delete webhook endpoint?' })
      .getByRole('button', { name: 'Delete endpoint' })
      .click();
    await page.getByText('No webhook endpoints yet').waitFor();
    expect(await endpoints(owner.token)).toEqual([]);
    expect(unexpectedProblems(problems, [400, 422])).toEqual([]);
    await context.close();
  });
});
