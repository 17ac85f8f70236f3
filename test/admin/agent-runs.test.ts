// Agents → Agent runs in a real browser against the real app, with jobs running: the email-sequence-generator
// drafts from the ingested site and waits for a person's approval; the list shows it with its status, steps done
// and what it waits for; the run shows its steps and the links to act, and follows itself to its end once the
// sequence is approved; another run is cancelled after a confirmation; a filter, an empty list and a missing run.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { listenOnReservedPort } from '../handlers/connectors/listen.ts';
import { startSite, type Site } from '../handlers/knowledge/site.ts';
import { agentEnv, brief, follow, ingestSite, runAgent, waiting, type Run } from '../handlers/agents/agent-fixtures.ts';
import { json, readyWorkspace, type Workspace } from '../handlers/sequences/sequence-fixtures.ts';
import {
  sharedBrowser,
  releaseBrowser,
  openPage,
  screenshotPath,
  signInThroughForm,
  unexpectedProblems,
  type AdminPage,
} from './helpers/browser.ts';
import { holdsLayout } from './helpers/layout-faults.ts';

let t: TestApp;
let site: Site;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
let ws: Workspace;
let parked: Run;
let other: Run;

const sequenceOf = (run: Run) => run.required_action?.resource.id as string;

beforeAll(async () => {
  site = await startSite();
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'work', env: agentEnv }));
  browser = await sharedBrowser();
  ws = await readyWorkspace(t, undefined, { signup: { name: 'Ada Lovelace', workspace_name: 'Analytical Engines' } });
  await ingestSite(t, ws.owner.token, site.url);
  parked = await follow(t, ws.owner.token, (await runAgent(t, ws.owner.token, brief)).id, waiting);
  expect(parked.required_action?.type, JSON.stringify(parked.error)).toBe('sequence_approval');
  other = await follow(t, ws.owner.token, (await runAgent(t, ws.owner.token, { ...brief, steps: 1 })).id, waiting);
  expect(other.status).toBe('requires_action');
}, 180_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await site?.close();
  await t?.close();
});

async function signedIn(path: string, heading: string, email = ws.owner.email, password = ws.owner.password) {
  const admin: AdminPage = await openPage(browser, server.url);
  await admin.page.goto(path);
  await signInThroughForm(admin.page, email, password);
  await admin.page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return admin;
}

describe('admin panel: agent runs', () => {
  it('lists a run with its agent, status, start, steps done and what it waits for, and opens its steps', async () => {
    const { page, context, problems } = await signedIn('/admin/agent-runs', 'Agent runs');
    const row = page.locator(`tr[data-run-id="${parked.id}"]`);
    await row.getByRole('link', { name: 'Email sequence generator', exact: true }).waitFor();
    await row.getByText('Waiting for you').waitFor();
    expect(await row.locator('td').nth(2).textContent()).toBe('5 of 6');
    await row.getByText('A person’s approval of the sequence it drafted').waitFor();
    await row.locator('time').waitFor();
    await page.screenshot({ path: screenshotPath('agent-runs'), fullPage: true });
    await holdsLayout(page, row.getByRole('link', { name: `Open the Email sequence generator run ${parked.id}` }));

    await row.getByRole('link', { name: `Open the Email sequence generator run ${parked.id}` }).click();
    await page.getByRole('heading', { name: 'Email sequence generator run', level: 1 }).waitFor();
    expect(new URL(page.url()).search).toBe(`?run=${parked.id}`);
    const steps = page.getByRole('list', { name: 'Steps, in order' }).getByRole('listitem');
    expect(await steps.count()).toBe(6);
    await steps.nth(0).getByText('Connect sender').waitFor();
    await steps.nth(0).getByText('Done').waitFor();
    await steps.nth(5).getByText('Await approval').waitFor();
    await steps.nth(5).getByText('Waiting', { exact: true }).waitFor();
    const waitingCard = page.getByRole('region', { name: 'Waiting for you' });
    await waitingCard.getByText('review the rendered emails, then approve or reject them').waitFor();
    expect(await waitingCard.getByRole('link', { name: 'Open the sequence' }).getAttribute('href')).toBe(
      `/admin/sequences/${sequenceOf(parked)}`,
    );
    const review = waitingCard.getByRole('link', { name: 'Review it in Approvals' });
    expect(await review.getAttribute('href')).toBe(`/admin/approvals?sequence=${sequenceOf(parked)}`);
    await page.screenshot({ path: screenshotPath('agent-run'), fullPage: true });
    await holdsLayout(page, page.getByRole('button', { name: 'Cancel run' }));
    await review.click();
    // In the panel, without a reload: the review of the sequence the run waits on.
    await page.waitForURL(`**/admin/approvals?sequence=${sequenceOf(parked)}`);
    await page
      .getByRole('button', { name: /Approve/ })
      .first()
      .waitFor();
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('follows an open run to its end once the person has approved its sequence', async () => {
    const { page, context, problems } = await signedIn(
      `/admin/agent-runs?run=${parked.id}`,
      'Email sequence generator run',
    );
    await page.getByRole('region', { name: 'Waiting for you' }).waitFor();
    const sequence = await json(t.request(`/api/v1/sequences/${sequenceOf(parked)}`, { token: ws.owner.token }));
    await json(
      t.request(`/api/v1/sequences/${sequence.id}/approve`, {
        method: 'POST',
        token: ws.owner.token,
        json: { revision: sequence.revision },
      }),
    );
    const runSummary = page.getByRole('region', { name: 'Run summary' });
    await runSummary.getByText('Succeeded').waitFor({ timeout: 30_000 });
    expect(await page.getByRole('region', { name: 'Waiting for you' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);
    const made = page.getByRole('list', { name: 'What it made' });
    expect(await made.getByRole('link').getAttribute('href')).toBe(`/admin/sequences/${sequence.id}`);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('cancels a waiting run after a confirmation, and offers no cancel once it is cancelled', async () => {
    const { page, context, problems } = await signedIn(
      `/admin/agent-runs?run=${other.id}`,
      'Email sequence generator run',
    );
    await page.getByRole('button', { name: 'Cancel run' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this run?' });
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await json(t.request(`/api/v1/agent-runs/${other.id}`, { token: ws.owner.token }))).status).toBe(
      'requires_action',
    );

    await page.getByRole('button', { name: 'Cancel run' }).click();
    await dialog.getByRole('button', { name: 'Cancel run' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('status').filter({ hasText: 'Cancelled. What the run already made stays.' }).waitFor();
    await page.getByRole('region', { name: 'Run summary' }).getByText('Cancelled').waitFor();
    expect(await page.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);
    expect((await json(t.request(`/api/v1/agent-runs/${other.id}`, { token: ws.owner.token }))).status).toBe(
      'cancelled',
    );

    await page.getByRole('link', { name: 'All runs' }).click();
    await page.getByLabel('Status').selectOption('cancelled');
    await expect.poll(() => new URL(page.url()).search).toBe('?status=cancelled');
    await page.locator(`tr[data-run-id="${other.id}"]`).getByText('Cancelled').waitFor();
    expect(await page.locator(`tr[data-run-id="${parked.id}"]`).count()).toBe(0);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('starts the store’s sequence agent from a form drawn from its input schema, and opens the new run', async () => {
    const { page, context, problems } = await signedIn('/admin/agent-runs', 'Agent runs');
    await page.getByRole('button', { name: 'Run an agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run an agent' });
    await dialog.getByLabel('Goal').fill(brief.goal);
    await dialog.getByLabel('Audience').fill(brief.audience);
    await dialog.getByLabel('Steps').fill('2');
    await dialog.getByLabel('Tone').selectOption('friendly');
    await dialog.getByRole('button', { name: 'Run agent' }).click();
    await page.waitForURL(/\?run=run_/);
    const id = new URL(page.url()).searchParams.get('run')!;
    const run = await json(t.request(`/api/v1/agent-runs/${id}`, { token: ws.owner.token }));
    expect(run.input).toMatchObject({ goal: brief.goal, audience: brief.audience, steps: 2, tone: 'friendly' });
    await page.getByRole('heading', { level: 1 }).filter({ hasText: 'run' }).waitFor();
    await follow(t, ws.owner.token, id, waiting);
    await t.request(`/api/v1/agent-runs/${id}/cancel`, { method: 'POST', token: ws.owner.token });
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows the agent’s refusal of an input inside the run form', async () => {
    const { page, context, problems } = await signedIn('/admin/agent-runs', 'Agent runs');
    await page.getByRole('button', { name: 'Run an agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run an agent' });
    await dialog.getByLabel('Goal').fill('go');
    await dialog.getByLabel('Audience').fill(brief.audience);
    await dialog.getByRole('button', { name: 'Run agent' }).click();
    await dialog.locator('.dialog-error').getByText(/goal/i).first().waitFor();
    expect(new URL(page.url()).searchParams.get('run')).toBeNull();
    expect(unexpectedProblems(problems, [400, 422])).toEqual([]);
    await context.close();
  });

  it('says so when no agent ran yet, and when a run cannot be read', async () => {
    const stranger = await t.signup({ name: 'Charles Babbage', workspace_name: 'Difference Engines' });
    const { page, context, problems } = await signedIn(
      '/admin/agent-runs',
      'Agent runs',
      stranger.email,
      stranger.password,
    );
    await page.getByRole('heading', { name: 'No agent runs yet' }).waitFor();
    await page.goto(`/admin/agent-runs?run=${parked.id}`);
    await page.getByText('Could not load this page').waitFor();
    expect(unexpectedProblems(problems, [404])).toEqual([]);
    await context.close();
  });
});
