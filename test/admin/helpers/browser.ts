// Debian's Chromium driven by playwright-core, plus what every admin-panel test watches: console
// errors, uncaught exceptions and Content-Security-Policy violations in the page.
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const flags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export const outputDir = fileURLToPath(new URL('../../../test-output/admin/', import.meta.url));

// One Chromium per test process. A launch and its close cost about 2 s of CPU (its browser, zygote, GPU and network
// processes), and 31 test files use a browser: the first to ask launches it, and the files after it in the same
// process (vitest runs a worker's files one after another, isolate: false) reuse it. Each file's contexts are its
// own, and releaseBrowser closes them when the file ends. Playwright kills the browser when the process exits.
let shared: Promise<Browser> | undefined;

/** The test process's Chromium, launched by the first file that asks (and again after a crash or a failed launch). */
export function sharedBrowser(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium is not installed at ${chromiumPath}: run \`apt-get install -y chromium\` (or set CHROMIUM_PATH).`,
    );
  }
  if (!shared) {
    const launched = chromium.launch({ executablePath: chromiumPath, args: flags });
    shared = launched;
    const forget = (): void => {
      if (shared === launched) shared = undefined;
    };
    // A browser that crashed or failed to launch is launched again for the next file.
    launched.then((browser) => browser.on('disconnected', forget), forget);
  }
  return shared;
}

/** Ends a file's use of the shared browser: closes every context it opened (and their pages), keeps the browser. */
export async function releaseBrowser(browser: Browser | undefined): Promise<void> {
  if (!browser?.isConnected()) return;
  await Promise.all(browser.contexts().map((context) => context.close()));
}

export interface AdminPage {
  page: Page;
  context: BrowserContext;
  /** Console errors, page errors and CSP violations seen so far. */
  problems: string[];
}

/** A fresh browser context (its own sessionStorage) with one page, watched for problems. */
export async function openPage(browser: Browser, baseUrl: string): Promise<AdminPage> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1280, height: 800 },
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.exposeFunction('__reportCspViolation', (text: string) => problems.push(`csp: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __reportCspViolation(t: string): void }).__reportCspViolation(
        `${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`,
      );
    });
  });
  return { page, context, problems };
}

/**
 * Console errors the API's expected refusals cause: Chromium logs every non-2xx fetch as
 * "Failed to load resource". Tests that provoke a 401/403 on purpose pass the statuses they expect.
 */
export function unexpectedProblems(problems: string[], expectedStatuses: number[] = []): string[] {
  return problems.filter(
    (p) =>
      !expectedStatuses.some((s) => p.includes(`Failed to load resource: the server responded with a status of ${s}`)),
  );
}

export function screenshotPath(name: string): string {
  mkdirSync(outputDir, { recursive: true });
  return `${outputDir}${name}.png`;
}

/** Signs in through the form and waits for the signed-in layout. */
export async function signInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Settings' }).waitFor();
}

/** Whether the element has focus (for expect.poll). */
export function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el === document.activeElement);
}
