// The README's "Try the whole agent run", as a user runs it: examples/agent-run.ts as its own process against a
// listening service in sandbox mode, with the test as the human who opens the two links it prints — the
// consent page (played over HTTP) and the approval (the signed-up owner approves over REST, as the admin
// panel does) — and the run going on by itself after each. With --site, the brief is the user's own and the
// workspace's postal address is left alone unless --postal-address is given.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { listenOnReservedPort } from '../handlers/connectors/listen.ts';
import { playHuman } from '../handlers/connectors/human.ts';
import { spawnLineProcess } from '../helpers/child-lines.ts';
import { startSite, type Site } from '../handlers/knowledge/site.ts';
import { json, readyWorkspace } from '../handlers/sequences/sequence-fixtures.ts';

const example = fileURLToPath(new URL('../../examples/agent-run.ts', import.meta.url));
const env = { OUTBOUND_ALLOW_PRIVATE: 'true', KNOWLEDGE_CRAWL_DELAY_MS: '0', SEQUENCE_SEND_SPACING_MS: '0' };
const link = (line: string) => line.replace(/^\s*Open: /, '').trim();

type Outcome = { code: number; stdout: string; stderr: string };
/** Runs the example to its end with `args`; answers its exit code and what it printed. */
async function runExample(key: string, args: string[]): Promise<Outcome> {
  const options = { env: { ...process.env, SERVICE_API_KEY: key, SERVICE_API_BASE: server.url } };
  return promisify(execFile)(process.execPath, ['--import', 'tsx', example, ...args], options).then(
    (done) => ({ code: 0, ...done }),
    (error: Outcome) => error,
  );
}

async function approveAsOwner(approvalUrl: string, token: string): Promise<void> {
  const url = new URL(approvalUrl);
  const sequenceId = url.searchParams.get('sequence');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const sequence = await fetch(`${url.origin}/api/v1/sequences/${sequenceId}`, { headers });
  expect(sequence.status).toBe(200);
  const { revision, status } = (await sequence.json()) as { revision: number; status: string };
  expect(status).toBe('pending_approval');
  const approved = await fetch(`${url.origin}/api/v1/sequences/${sequenceId}/approve`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ revision }),
  });
  expect(approved.status, await approved.clone().text()).toBe(200);
}

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let site: Site;

beforeAll(async () => {
  site = await startSite();
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'work', env }));
});
afterAll(async () => {
  await site?.close();
  await server?.close();
  await t?.close();
});

describe('examples/agent-run.ts', () => {
  it('runs the whole agent run, waits at the consent and the approval links, prints the delivered messages, and a reply stops that lead', {
    timeout: 120_000,
  }, async () => {
    const owner = await t.signup();
    const { key } = await t.createKey(owner.token, 'agent-run example');
    // Through tsx, as the README runs it.
    const run = spawnLineProcess(example, { SERVICE_API_KEY: key, SERVICE_API_BASE: server.url }, [], {
      through: 'tsx',
    });
    try {
      await run.line((l) => l.startsWith('  YOUR TURN: allow access'));
      const consent = link(await run.line((l) => l.startsWith('  Open: ')));
      expect(consent).toMatch(new RegExp(`^${server.url}/`));
      expect((await playHuman(consent, { email: 'sales@brightline.example' })).status).toBe(200);

      const approval = link(
        await run.line((l) => l.startsWith('  Open: ') && l.includes('/admin/approvals?sequence=')),
      );
      await approveAsOwner(approval, owner.token);
      expect(await run.exited).toBe(0);

      // Each step is one line: the tool, what came back, and how long it took.
      await run.line((l) => /^✓ get_connector +connected sales@brightline\.example +\(\d+ ms\)$/.test(l));
      await run.line((l) => /^✓ bulk_import_leads +total 5, .*created 3.*invalid 2/.test(l));
      await run.line((l) => /^✓ get_agent_run +requires_action \(sequence_approval\)/.test(l));
      await run.line((l) => /^✓ launch_email_sequence +active, .*enrolled 3/.test(l));
      await run.line('Delivered to the sandbox mailbox');
      for (const to of ['maya@rise-bakery.example', 'tom@petal-and-stem.example', 'priya@green-grocer.example'])
        await run.line((l) => l.includes(`To: `) && l.includes(to));
      await run.line((l) => l.includes('| Hello Maya,'));
      await run.line((l) => l.includes('rents electric cargo bikes to local shops'));
      await run.line((l) => l.includes('1 Example Street, Leeds'));
      await run.line('Done: the sequence is active and its first 3 emails were delivered');
      // The sandbox lead answers, the mailbox is read, and the reply stops that lead's sequence.
      await run.line((l) => /replied: classified "reply", their sequence is stopped \(replied\)/.test(l));

      const mailbox = await t.request('/api/v1/sandbox/messages?limit=50', { token: owner.token });
      const directions = ((await mailbox.json()) as { data: { direction: string }[] }).data.map((m) => m.direction);
      expect(directions.sort()).toEqual(['inbound', 'sent', 'sent', 'sent']);
    } finally {
      if (run.process.exitCode === null) run.process.kill();
    }
  });

  it("exits 1 with the tool's error text when a tool refuses", async () => {
    const owner = await t.signup();
    const { key } = await t.createKey(owner.token, 'agent-run example');
    // The settings allow 300 characters; the first step that is not a lookup refuses 301.
    const failed = await runExample(key, [
      '--site',
      'https://brand.example/',
      '--goal',
      'Sell rockets',
      '--audience',
      'startups',
      '--postal-address',
      'x'.repeat(301),
    ]);
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toMatch(/^✓ get_me /m);
    expect(failed?.stdout).not.toContain('update_workspace_settings');
    expect(failed?.stderr).toMatch(/✗ update_workspace_settings (answered an error|failed)/);
    expect(failed?.stderr).toMatch(/postal_address/);
  });

  it('refuses --site without a brief of its own, naming --goal and --audience, before calling any tool', async () => {
    const refused = await runExample('svc_unused', ['--site', site.url]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--site needs a brief about that site: pass --goal and --audience/);
    expect(refused.stdout).toBe('');
  });

  it("sends the brief given to run_agent and leaves the workspace's postal address alone", {
    timeout: 120_000,
  }, async () => {
    const ws = await readyWorkspace(t, [], { postalAddress: 'Rocket Row 7, Mojave CA 93501' });
    const { key } = await t.createKey(ws.owner.token, 'agent-run example');
    const brief = {
      goal: 'Sell reusable rocket launches to satellite teams',
      audience: 'small satellite startups',
      call_to_action: 'a seat on the next Roadrunner rideshare',
    };
    const args = [
      '--site',
      `${site.url}/`,
      '--goal',
      brief.goal,
      '--audience',
      brief.audience,
      '--cta',
      brief.call_to_action,
    ];
    const run = spawnLineProcess(example, { SERVICE_API_KEY: key, SERVICE_API_BASE: server.url }, args, {
      through: 'tsx',
    });
    try {
      await run.line((l) => l.startsWith('  Open: ') && l.includes('/admin/approvals?sequence='));
      const runId = /run (run_\w+)/.exec(await run.line('✓ run_agent'))?.[1];
      const agentRun = await json(t.request(`/api/v1/agent-runs/${runId}`, { token: ws.owner.token }));
      expect(agentRun.input).toMatchObject(brief);
      await run.line((l) => /^✓ get_workspace_settings +postal address "Rocket Row 7, Mojave CA 93501"/.test(l));
      await run.line('    (kept: pass --postal-address to change it)');
      const settings = await json(t.request('/api/v1/workspace/settings', { token: ws.owner.token }));
      expect(settings.postal_address).toBe('Rocket Row 7, Mojave CA 93501');
    } finally {
      if (run.process.exitCode === null) run.process.kill();
    }
  });

  it('stops before writing when --site has no postal address to put in the footer', async () => {
    const owner = await t.signup();
    const { key } = await t.createKey(owner.token, 'agent-run example');
    const stopped = await runExample(key, [
      '--site',
      `${site.url}/`,
      '--goal',
      'Sell reusable rocket launches',
      '--audience',
      'satellite startups',
    ]);
    expect(stopped.code).toBe(1);
    expect(stopped.stdout).toMatch(/^✓ get_workspace_settings +no postal address/m);
    expect(stopped.stderr).toMatch(/no postal address.*pass --postal-address/);
    const settings = await json(t.request('/api/v1/workspace/settings', { token: owner.token }));
    expect(settings.postal_address).toBeNull();
  });

  it('fails the run, saying why, when the brief is about something the site never mentions', {
    timeout: 120_000,
  }, async () => {
    const ws = await readyWorkspace(t, []);
    const { key } = await t.createKey(ws.owner.token, 'agent-run example');
    const args = [
      '--site',
      `${site.url}/`,
      '--goal',
      'Get local shops to book a free week-long trial of a Brightline cargo e-bike',
      '--audience',
      'bakeries that deliver',
      '--cta',
      'a free week-long trial of a cargo bike at your shop',
    ];
    const failed = await runExample(key, args);
    expect(failed.code, failed.stdout).toBe(1);
    expect(failed.stdout).not.toContain('YOUR TURN: review and approve');
    expect(failed.stderr).toMatch(
      /failed: no_knowledge: The goal and call to action are about things the knowledge found never mentions \(.*brightline.*cargo.*\)/,
    );
  });
});
