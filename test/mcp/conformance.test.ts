// The official conformance suites (Node 22) against POST /mcp, through a proxy that adds the Authorization header
// the suites do not send. Which scenarios run, and which checks may fail because they need fixture tools or
// capabilities this server does not have, is recorded with reasons in conformance-baseline.json. The
// dns-rebinding-protection scenario also runs against the real app with the default configuration.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALICE, createToyApp } from './fixtures/toy-app.ts';
import { listen, type Listening } from './fixtures/listen.ts';
import { authProxy } from './fixtures/auth-proxy.ts';
import { createTestApp, listen as listenApp, type TestApp } from '../helpers/app.ts';
import baseline from './conformance-baseline.json' with { type: 'json' };
import { node22 } from '../helpers/node22.ts';

interface Suite {
  cli: string;
  run: string[];
  notApplicable: Record<string, string>;
  notApplicableChecks: Record<string, Record<string, string>>;
}

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const suites = Object.entries(baseline.suites) as [string, Suite][];

let api: Listening;
let proxy: Listening;
beforeAll(async () => {
  // No allowed origins: the DNS-rebinding scenario's Origin http://127.0.0.1:<proxy port> is loopback.
  api = await listen(createToyApp().app);
  proxy = await authProxy(api.url, `Bearer ${ALICE}`);
});
afterAll(async () => {
  await proxy.close();
  await api.close();
});

function conformance(cli: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    // Exit status is not used: a scenario whose only failures are not-applicable checks exits 1.
    execFile(
      node22,
      [join(root, cli), ...args],
      { timeout: 120_000, env: { PATH: process.env.PATH ?? '' } },
      (_e, stdout) => resolve(stdout),
    );
  });
}

async function runScenario(cli: string, entry: string, target = proxy): Promise<Check[]> {
  const [scenario, revision] = entry.split('@');
  const out = mkdtempSync(join(tmpdir(), 'conformance-'));
  const version = revision ? ['--spec-version', revision] : [];
  await conformance(cli, ['server', '--url', `${target.url}/mcp`, '--scenario', scenario, ...version, '-o', out]);
  const [dir] = readdirSync(out);
  if (!dir) throw new Error(`conformance wrote no results for ${scenario}`);
  return JSON.parse(readFileSync(join(out, dir, 'checks.json'), 'utf8')) as Check[];
}

describe.each(suites)('MCP conformance, %s', (_name, suite) => {
  it('lists every server scenario of the suite in the baseline', async () => {
    const listing = await conformance(suite.cli, ['list']);
    const serverSection = listing.split(/\n(?=\S)/).find((section) => section.startsWith('Server scenarios')) ?? '';
    const scenarios = [...serverSection.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
    expect(scenarios.length).toBeGreaterThan(0);
    const run = new Set(suite.run.map((entry) => entry.split('@')[0]));
    const unaccounted = scenarios.filter((s) => !run.has(s) && !(s in suite.notApplicable));
    expect(unaccounted).toEqual([]);
  });

  it.each(suite.run)('passes %s', async (entry) => {
    const checks = await runScenario(suite.cli, entry);
    const allowed = suite.notApplicableChecks[entry.split('@')[0]] ?? {};
    const failed = checks.filter((c) => !['SUCCESS', 'INFO'].includes(c.status) && !(c.id in allowed));
    expect(failed).toEqual([]);
    expect(checks.some((c) => c.status === 'SUCCESS')).toBe(true);
  });
});

describe('MCP conformance against the real app with the default configuration (no MCP_ALLOWED_ORIGINS)', () => {
  let real: TestApp;
  let realApi: Awaited<ReturnType<typeof listenApp>>;
  let realProxy: Listening;
  beforeAll(async () => {
    real = await createTestApp();
    const key = await real.createKey((await real.signup()).token, 'conformance');
    realApi = await listenApp(real.app);
    realProxy = await authProxy(realApi.url, `Bearer ${key.key}`);
  });
  afterAll(async () => {
    await realProxy.close();
    await realApi.close();
    await real.close();
  });

  const rebinding = suites.flatMap(([name, suite]) =>
    suite.run
      .filter((entry) => entry.startsWith('dns-rebinding-protection@'))
      .map((entry) => [name, entry, suite.cli] as const),
  );

  it.each(rebinding)('%s passes %s', async (_name, entry, cli) => {
    const checks = await runScenario(cli, entry, realProxy);
    expect(checks.filter((c) => c.status !== 'SUCCESS')).toEqual([]);
    expect(checks.map((c) => c.id).sort()).toEqual([
      'localhost-host-rebinding-rejected',
      'localhost-host-valid-accepted',
    ]);
  });
});
