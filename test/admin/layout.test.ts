// Every page of the panel's sidebar (and the lead and sequence detail pages), signed in with data in the
// workspace, at 390, 768 and 1280 px wide: the document never scrolls sideways, every .btn can be seen whole
// (inside the viewport, or brought into view inside the container that scrolls it, and clipped by no
// ancestor), and no table cell wraps its text a letter or two per line. Then a keyboard-only pass through
// the invite-member dialog, and a screenshot of every page at 1280 px.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchDue, sendFromMailbox } from '../../src/handlers/sequences/sender.ts';
import type { TestApp } from '../helpers/app.ts';
import { listenOnReservedPort } from '../handlers/connectors/listen.ts';
import {
  isFocused,
  sharedBrowser,
  releaseBrowser,
  openPage,
  screenshotPath,
  signInThroughForm,
} from './helpers/browser.ts';
import { layoutFaults } from './helpers/layout-faults.ts';
import { ok, oneStep, pendingSequence, sendingWorkspace, type SendingWorkspace } from './helpers/sequences.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
let ws: SendingWorkspace;
let sequenceId: string;

const widths = [390, 768, 1280] as const;
const longSubject =
  'Quarterly-infrastructure-modernisation-programme-update for {{first_name}} and your engineering team';

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', env: { SEQUENCE_SEND_SPACING_MS: '0' } }));
  browser = await sharedBrowser();
  ws = await sendingWorkspace(t, [
    { email: 'ada.lovelace.with.a.rather.long.address@analytical-engines.example', first_name: 'Ada' },
    { email: 'charles@example.com', first_name: 'Charles', last_name: 'Babbage' },
  ]);
  const token = ws.owner.token;
  for (const name of ['CI deploys', 'A key with a long descriptive name for the nightly reporting agent']) {
    await ok(t.request('/api/v1/api-keys', { method: 'POST', token, json: { name } }), 201);
  }
  await ok(
    t.request('/api/v1/invitations', { method: 'POST', token, json: { email: 'grace@example.com', role: 'admin' } }),
    201,
  );
  const body = { ...oneStep(ws.connector.id, 'Launch announcement'), steps: [{ subject: longSubject, body: 'Hi.' }] };
  const seq = await pendingSequence(t, ws, 'Launch announcement', body);
  sequenceId = seq.id;
  await ok(
    t.request(`/api/v1/sequences/${seq.id}/approve`, { method: 'POST', token, json: { revision: seq.revision } }),
  );
  await ok(
    t.request(`/api/v1/sequences/${seq.id}/launch`, {
      method: 'POST',
      token,
      json: { enroll: { lead_ids: ws.leads.map((l) => l.id) } },
    }),
  );
  for (let pass = 0; pass < 20; pass++) {
    const mailboxes = await dispatchDue(t.deps);
    if (!mailboxes.length) break;
    for (const m of mailboxes) await sendFromMailbox(t.deps, m);
  }
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await t?.close();
});

async function signedIn(width: number): Promise<Page> {
  const { page } = await openPage(browser, server.url);
  await page.setViewportSize({ width, height: 800 });
  await page.goto('/admin/api-keys');
  await signInThroughForm(page, ws.owner.email, ws.owner.password);
  return page;
}

/** Opens a page of the panel, signing in again if the panel asks, and waits until it has loaded. */
async function visit(page: Page, path: string): Promise<void> {
  await page.goto(path);
  const form = page.getByLabel('Password', { exact: true });
  const shell = page.getByRole('navigation', { name: 'Settings' });
  await form.or(shell).first().waitFor();
  if (await form.isVisible()) await signInThroughForm(page, ws.owner.email, ws.owner.password);
  await page.waitForFunction(
    () => document.querySelector('main h1') && !document.querySelector('main .loading-state, main .spinner'),
  );
}

async function sidebarPaths(page: Page): Promise<string[]> {
  const hrefs = await page.locator('a.nav-link').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  expect(hrefs).toContain('/admin/api-keys');
  return [...hrefs, `/admin/sequences/${sequenceId}`, `/admin/leads/${ws.leads[0].id}`];
}

const pageName = (path: string) => path.replace(/^\/admin\/?/, '').replace(/\/[a-z]+_[0-9a-z]+$/, '-detail') || 'home';

describe('the panel layout', () => {
  it.each(widths)(
    'at %i px: no page scrolls sideways, every action button can be seen whole, no cell wraps letter by letter',
    async (width) => {
      const page = await signedIn(width);
      const faults: string[] = [];
      for (const path of await sidebarPaths(page)) {
        await visit(page, path);
        if (width === 1280) await page.screenshot({ path: screenshotPath(pageName(path)), fullPage: true });
        for (const fault of await page.evaluate(layoutFaults)) faults.push(`${path} @${width}: ${fault}`);
      }
      expect(faults).toEqual([]);
      await page.context().close();
    },
    120_000,
  );
});

describe('a dialog by keyboard only', () => {
  it('opens from its button with Enter, fills and submits with the keyboard, returns focus, and Escape closes it', async () => {
    const page = await signedIn(1280);
    await visit(page, '/admin/members');
    const opener = page.getByRole('button', { name: 'Invite member' });
    await page.locator('body').focus();
    for (let i = 0; i < 60 && !(await isFocused(opener)); i++) await page.keyboard.press('Tab');
    expect(await isFocused(opener)).toBe(true);

    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Invite a member' });
    await dialog.waitFor();
    await expect.poll(() => isFocused(dialog.getByLabel('Email'))).toBe(true);
    await page.keyboard.type('ada.keyboard@example.com');
    await page.keyboard.press('Tab');
    expect(await isFocused(dialog.getByLabel('Role'))).toBe(true);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');

    const handOver = page.getByRole('dialog', { name: 'Hand over the invitation' });
    await handOver.waitFor();
    const done = handOver.getByRole('button', { name: 'Done' });
    for (let i = 0; i < 10 && !(await isFocused(done)); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await handOver.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(opener)).toBe(true);
    await page.getByText('Invitation created for ada.keyboard@example.com.').waitFor();

    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(opener)).toBe(true);
    await page.context().close();
  });
});
