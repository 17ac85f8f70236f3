// Sequences and a sequence's page in a real browser against the real app, on results made through the real
// sending, reply and bounce paths over two days with an A/B test (helpers/sequence-results.ts): the list's
// statuses and rates, the charts and their numbers (compared with get_sequence_analytics), steps and variants,
// pause, resume and archive, the empty and error states, and the layout at three widths.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { listenOnReservedPort } from '../handlers/connectors/listen.ts';
import {
  sharedBrowser,
  releaseBrowser,
  openPage,
  screenshotPath,
  signInThroughForm,
  unexpectedProblems,
  type AdminPage,
} from './helpers/browser.ts';
import { clock, resultsWorkspace, type Results } from './helpers/sequence-results.ts';
import { ok } from './helpers/sequences.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let browser: Browser;
let r: Results;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', clock, env: { SEQUENCE_SEND_SPACING_MS: '0' } }));
  browser = await sharedBrowser();
  r = await resultsWorkspace(t);
}, 180_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.close();
  await t?.close();
});

const api = (path: string) => ok(t.request(path, { token: r.key }));
const pct = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 1000) / 10}%`);

async function signedIn(path: string, email = r.ws.owner.email, password = r.ws.owner.password): Promise<AdminPage> {
  const admin = await openPage(browser, server.url);
  await admin.page.goto(path);
  await signInThroughForm(admin.page, email, password);
  return admin;
}

/** The rows of the "Show the numbers" table of the chart titled `title`, opened first. */
async function numbers(page: Page, title: string): Promise<string[][]> {
  const figure = page.locator('figure.chart').filter({ has: page.getByRole('heading', { name: title }) });
  await figure.getByText('Show the numbers').click();
  return figure
    .locator('table tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())));
}

describe('admin panel: sequences', () => {
  it('lists the sequences with their status and rates from the outreach analytics', async () => {
    const { page, context, problems } = await signedIn('/admin/sequences');
    await page.getByRole('heading', { name: 'Sequences', level: 1 }).waitFor();
    await page.getByText('3 sequences').waitFor();
    const figures = await api('/api/v1/analytics/outreach?group_by=sequence');
    const row = (id: string) => page.locator(`tr[data-sequence-id="${id}"]`);
    const cells = (id: string) =>
      row(id)
        .locator('th, td')
        .evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));

    const ab = figures.groups.find((g: any) => g.sequence_id === r.abIntro);
    expect(await cells(r.abIntro)).toEqual([
      'A/B intro',
      'Active',
      '45',
      String(ab.sent),
      pct(ab.reply_rate),
      pct(ab.bounce_rate),
      `${pct(ab.open_rate)} · off`,
    ]);
    expect(ab.reply_rate).toBeGreaterThan(0);
    expect(ab.bounce_rate).toBeGreaterThan(0);
    expect((await cells(r.pending)).slice(0, 5)).toEqual(['Follow-up draft', 'Pending approval', '0', '0', '—']);
    await page.screenshot({ path: screenshotPath('sequences'), fullPage: true });

    await page.getByLabel('Status').selectOption('pending_approval');
    await page.getByText('1 sequence', { exact: true }).waitFor();
    expect(new URL(page.url()).search).toBe('?status=pending_approval');

    await page.getByLabel('Status').selectOption('');
    await row(r.abIntro).getByRole('link', { name: 'A/B intro' }).click();
    await page.getByRole('heading', { name: 'A/B intro', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/admin/sequences/${r.abIntro}`);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it("draws a sequence's charts whose numbers are get_sequence_analytics, per day, step and variant", async () => {
    const { page, context, problems } = await signedIn(`/admin/sequences/${r.abIntro}`);
    const results = page.getByRole('region', { name: 'Results' });
    await results.locator('figure.chart canvas').nth(2).waitFor();
    const sizes = await results
      .locator('figure.chart canvas')
      .evaluateAll((cs) => cs.map((c) => [(c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height]));
    expect(sizes).toHaveLength(3);
    for (const [w, h] of sizes) expect(w * h).toBeGreaterThan(0);

    const q = `/api/v1/sequences/${r.abIntro}/analytics?timezone=UTC&group_by=`;
    const days = await api(`${q}day`);
    expect(days.groups.map((g: any) => g.day)).toEqual(['2026-11-23', '2026-11-24']);
    expect(await numbers(page, 'Sent, replied and bounced per day')).toEqual([
      ['23 Nov', ...[days.groups[0].sent, days.groups[0].replied, days.groups[0].bounced].map(String)],
      ['24 Nov', ...[days.groups[1].sent, days.groups[1].replied, days.groups[1].bounced].map(String)],
    ]);

    const rates = (g: any) => [String(g.sent), pct(g.reply_rate), pct(g.bounce_rate), pct(g.open_rate)];
    const steps = await api(`${q}step`);
    expect(await numbers(page, 'Rates per step')).toEqual(
      steps.groups.map((g: any) => [`Step ${g.step}`, ...rates(g)]),
    );
    const variants = await api(`${q}step,variant`);
    const tested = variants.groups.filter((g: any) => g.variant !== null);
    expect(tested.map((g: any) => [g.step, g.variant])).toEqual([
      [1, 1],
      [1, 2],
    ]);
    expect(await numbers(page, 'Rates per variant')).toEqual(
      tested.map((g: any) => [`Step 1 · ${g.variant === 1 ? 'A' : 'B'}`, ...rates(g)]),
    );
    expect(tested[1].reply_rate).toBeGreaterThan(tested[0].reply_rate);

    // The legend names each series with its own pattern; colour is not the only difference.
    const legend = page.locator('figure.chart').first().getByRole('list', { name: 'Legend' });
    expect(await legend.locator('li').allTextContents()).toEqual(['Sent', 'Replied', 'Bounced']);
    const dashes = await legend.locator('line').evaluateAll((ls) => ls.map((l) => l.getAttribute('stroke-dasharray')));
    expect(new Set(dashes).size).toBe(3);
    await page.screenshot({ path: screenshotPath('sequence'), fullPage: true });
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows the steps with their variants, weights and winner, the schedule, mailbox and tracking', async () => {
    const { page, context, problems } = await signedIn(`/admin/sequences/${r.abIntro}`);
    const steps = page.getByRole('region', { name: 'Steps' });
    const one = steps.locator('li[data-step="1"]');
    await one.getByText('Winner: B').waitFor();
    expect(await one.locator('li[data-variant="A"]').textContent()).toContain('weight 1 (50% of sends)');
    expect(await one.locator('li[data-variant="B"]').textContent()).toContain('weight 1 (50% of sends)');
    expect(await one.locator('li[data-variant="B"]').textContent()).toContain('An idea for {{company}}');
    expect(await one.locator('li.is-winner').getAttribute('data-variant')).toBe('B');
    const two = steps.locator('li[data-step="2"]');
    expect(await two.textContent()).toContain('1 day after step 1');
    expect(await two.textContent()).toContain('Just following up');

    const facts = page.getByRole('region', { name: 'How it sends' });
    expect(await facts.textContent()).toContain('Every day, any time (UTC)');
    expect(await facts.textContent()).toContain('sales@sandbox.example (sandbox)');
    expect(await facts.textContent()).toContain('On: opens');

    const enrolled = page.getByRole('region', { name: 'Enrolled leads' });
    await enrolled.getByText('25 leads shown').waitFor();
    await enrolled.getByRole('button', { name: 'Load more' }).click();
    await enrolled.getByText('45 leads', { exact: true }).waitFor();
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('pauses and resumes a sequence, and links to its sent messages', async () => {
    const { page, context, problems } = await signedIn(`/admin/sequences/${r.abIntro}`);
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByText('Paused: nothing more is sent until you resume it.').waitFor();
    expect((await api(`/api/v1/sequences/${r.abIntro}`)).status).toBe('paused');
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByText('Resumed: due messages are sent within its sending window.').waitFor();
    expect((await api(`/api/v1/sequences/${r.abIntro}`)).status).toBe('active');
    await page.getByRole('button', { name: 'Pause' }).waitFor();

    await page.getByRole('link', { name: 'Sent messages' }).last().click();
    await page.getByRole('heading', { name: 'Sent messages', level: 1 }).waitFor();
    expect(new URL(page.url()).search).toBe(`?sequence_id=${r.abIntro}`);
    await page.getByRole('group', { name: 'Filters' }).getByText(r.abIntro).waitFor();
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('archives a sequence only after the confirmation', async () => {
    const { page, context, problems } = await signedIn(`/admin/sequences/${r.webinar}`);
    await page.getByRole('button', { name: 'Archive' }).click();
    const dialog = page.getByRole('dialog', { name: 'Archive “Webinar invite”?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await api(`/api/v1/sequences/${r.webinar}`)).status).toBe('active');

    await page.getByRole('button', { name: 'Archive' }).click();
    await dialog.getByRole('button', { name: 'Archive sequence' }).click();
    await page.getByText('Archived: it sends nothing more.').waitFor();
    expect((await api(`/api/v1/sequences/${r.webinar}`)).status).toBe('archived');
    expect(await page.getByRole('button', { name: /Archive|Pause|Resume/ }).count()).toBe(0);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('links a sequence pending approval to its review and says its charts wait for sends', async () => {
    const { page, context, problems } = await signedIn(`/admin/sequences/${r.pending}`);
    await page.getByText('No sends yet — the charts fill in once the sequence sends.').waitFor();
    const review = page.getByRole('link', { name: 'review it in Approvals' });
    expect(await review.getAttribute('href')).toBe(`/admin/approvals?sequence=${r.pending}`);
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    await page.getByText('No lead enrolled').waitFor();
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows a page of 25 sequences and the next with Load more', async () => {
    const other = await t.signup();
    for (let i = 1; i <= 26; i++)
      await ok(
        t.request('/api/v1/sequences', {
          method: 'POST',
          token: other.token,
          json: { name: `Draft ${i}`, steps: [{ subject: 'Hi', body: 'Hello.' }] },
        }),
        201,
      );
    const { page, context, problems } = await signedIn('/admin/sequences', other.email, other.password);
    await page.getByText('25 sequences shown').waitFor();
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByText('26 sequences', { exact: true }).waitFor();
    const names = await page.locator('tbody th').allTextContents();
    expect(new Set(names).size).toBe(26);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });

  it('says when there are no sequences yet, and when a sequence does not exist', async () => {
    const other = await t.signup();
    const { page, context, problems } = await signedIn('/admin/sequences', other.email, other.password);
    await page.getByText('No sequences yet', { exact: true }).waitFor();
    await page.goto(`/admin/sequences/seq_${'0'.repeat(26)}`);
    await page.getByText('This sequence does not exist in this workspace (or was deleted).').waitFor();
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    expect(unexpectedProblems(problems, [404])).toEqual([]);
    await context.close();
  });

  it('fits the list and the charts at 390, 768 and 1280 px with every action visible', async () => {
    const { page, context, problems } = await signedIn(`/admin/sequences/${r.abIntro}`);
    await page.locator('figure.chart canvas').nth(2).waitFor();
    for (const width of [390, 768, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await expect
        .poll(() =>
          page.locator('figure.chart').evaluateAll((figs) =>
            figs.every((f) => {
              const canvas = f.querySelector('canvas');
              return canvas !== null && canvas.getBoundingClientRect().width <= f.getBoundingClientRect().width + 1;
            }),
          ),
        )
        .toBe(true);
      // This page's own content (the sidebar is the shell's); wide tables scroll inside their wrapper.
      const overflow = await page.evaluate(() =>
        [...document.querySelectorAll('main *')]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('.table-wrap'))
          .map((e) => `${e.tagName}.${e.getAttribute('class')}`)
          .slice(0, 5),
      );
      expect([width, overflow]).toEqual([width, []]);
      for (const name of ['Pause', 'Archive']) {
        const box = await page.getByRole('button', { name }).boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
      }
    }
    expect(unexpectedProblems(problems)).toEqual([]);
    await context.close();
  });
});
