// Settings → Events in a real browser against the real app: the event log lists what changed (time, type,
// subject, who) with each payload as JSON behind a disclosure, a type filter narrows it and stays in the
// address, a filter the API refuses says so, and a member who is not an admin is told the log is admin-only.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, listen, uniqueEmail, type TestApp } from '../helpers/app.ts';
import {
  sharedBrowser,
  releaseBrowser,
  openPage,
  screenshotPath,
  signInThroughForm,
  unexpectedProblems,
} from './helpers/browser.ts';

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

async function eventTypes(token: string): Promise<string[]> {
  const res = await t.request('/api/v1/events?limit=100', { token });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Array<{ type: string }> }).data.map((e) => e.type);
}

describe('admin panel: events', () => {
  it('lists the events with their payload, filters them by type, and says when a filter is refused', async () => {
    const owner = await t.signup({ name: 'Ada Lovelace', workspace_name: 'Analytical Engines' });
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/events');
    await signInThroughForm(page, owner.email, owner.password);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Events');
    if ((await eventTypes(owner.token)).length === 0) await page.getByText('No events yet').waitFor();

    const key = await t.createKey(owner.token, 'Warehouse export');
    const revoked = await t.request(`/api/v1/api-keys/${key.id}`, { method: 'DELETE', token: owner.token });
    expect(revoked.status).toBe(200);
    const settings = await t.request('/api/v1/workspace/settings', {
      method: 'PATCH',
      token: owner.token,
      json: { postal_address: '12 Marylebone Road, London' },
    });
    expect(settings.status).toBe(200);
    expect(await eventTypes(owner.token)).toEqual(
      expect.arrayContaining(['api_key.created', 'api_key.revoked', 'workspace.settings_updated']),
    );

    await page.reload();
    const log = page.getByRole('list', { name: 'Events' });
    const created = log.getByRole('listitem').filter({ hasText: 'api_key.created' });
    await created.waitFor();
    await created.getByText(key.id, { exact: true }).waitFor();
    await created.getByText('by Ada Lovelace').waitFor();
    const payload = created.getByLabel('Payload of api_key.created');
    expect(await payload.isVisible()).toBe(false);
    await created.getByText('Payload').click();
    await payload.waitFor();
    const json = JSON.parse((await payload.textContent()) ?? '') as { id: string; name: string };
    expect(json).toMatchObject({ id: key.id, name: 'Warehouse export' });
    await log.getByRole('listitem').filter({ hasText: 'workspace.settings_updated' }).getByText('Payload').click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: screenshotPath('events'), fullPage: true });

    await page.getByLabel('Event types').fill('api_key.*');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('type')).toBe('api_key.*');
    await expect.poll(() => log.getByRole('listitem').count()).toBe(2);
    expect(await log.getByText('workspace.settings_updated').count()).toBe(0);
    await page.reload();
    expect(await page.getByLabel('Event types').inputValue()).toBe('api_key.*');
    await expect.poll(() => page.getByRole('list', { name: 'Events' }).getByRole('listitem').count()).toBe(2);

    await page.getByLabel('Event types').fill('webinar.*');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No events of these types').waitFor();

    await page.getByLabel('Event types').fill('x'.repeat(101));
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('alert').filter({ hasText: 'That filter does not work' }).waitFor();
    expect(await page.getByLabel('Event types').getAttribute('aria-invalid')).toBe('true');
    expect(unexpectedProblems(problems, [400, 422])).toEqual([]);
    await context.close();
  });

  it('tells a member who is not an admin that the event log is admin-only', async () => {
    const owner = await t.signup();
    const password = 'correct horse battery staple';
    const invited = await t.request('/api/v1/invitations', {
      method: 'POST',
      token: owner.token,
      json: { email: uniqueEmail('member'), role: 'member' },
    });
    const { token } = (await invited.json()) as { token: string };
    const accepted = await t.request('/api/v1/invitations/accept', {
      method: 'POST',
      json: { token, name: 'Grace Hopper', password },
    });
    const member = (await accepted.json()) as { user: { email: string } };
    const { page, context, problems } = await openPage(browser, server.url);
    await page.goto('/admin/events');
    await signInThroughForm(page, member.user.email, password);
    await page.getByText('The event log is admin-only').waitFor();
    await page.goto('/admin/webhooks');
    await page.getByText('Webhooks are admin-only').waitFor();
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });
});
