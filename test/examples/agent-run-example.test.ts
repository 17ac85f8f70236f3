// The README's "Try the whole agent run", as a user runs it: examples/agent-run.ts as its own process against a
// listening service in sandbox mode, with the test as the human who opens the two links it prints — the
// consent page (played over HTTP) and the approval (the signed-up owner approves over REST, as the admin
// panel does) — and the run going on by itself after each.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { playHuman } from '../connectors/human.ts';
import { spawnLineProcess } from '../helpers/child-lines.ts';

const example = fileURLToPath(new URL('../../examples/agent-run.ts', import.meta.url));
const env = { OUTBOUND_ALLOW_PRIVATE: 'true', KNOWLEDGE_CRAWL_DELAY_MS: '0', SEQUENCE_SEND_SPACING_MS: '0' };
const link = (line: string) => line.replace(/^\s*Open: /, '').trim();

async function approveAsOwner(approvalUrl: string, token: string): Promise<void> {
  const url = new URL(approvalUrl);
  const sequenceId = url.searchParams.get('sequence');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const sequence = await fetch(`${url.origin}/api/v1/sequences/${sequenceId}`, { headers });
  expect(sequence.status).toBe(200);
  const { revision, status } = (await sequence.json()) as { revision: number; status: string };
  expect(status).toBe('pending_approval');
  const approved = await fetch(`${url.origin}/api/v1/sequences/${sequenceId}/approve`, { method: 'POST', headers, body: JSON.stringify({ revision }) });
  expect(approved.status, await approved.clone().text()).toBe(200);
}

let t: TestApp;
let server: { url: string; close(): Promise<void> };

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'work', env }));
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

describe('examples/agent-run.ts', () => {
  it('runs the whole agent run, waits at the consent and the approval links, and prints the delivered messages', { timeout: 120_000 }, async () => {
    const owner = await t.signup();
    const { key } = await t.createKey(owner.token, 'agent-run example');
    const run = spawnLineProcess(example, { SERVICE_API_KEY: key, SERVICE_API_BASE: server.url });
    try {
      await run.line((l) => l.startsWith('  YOUR TURN: allow access'));
      const consent = link(await run.line((l) => l.startsWith('  Open: ')));
      expect(consent).toMatch(new RegExp(`^${server.url}/`));
      expect((await playHuman(consent, { email: 'sales@brightline.example' })).status).toBe(200);

      const approval = link(await run.line((l) => l.startsWith('  Open: ') && l.includes('/admin/approvals?sequence=')));
      await approveAsOwner(approval, owner.token);
      expect(await run.exited).toBe(0);

      // Each step is one line: the tool, what came back, and how long it took.
      await run.line((l) => /^✓ get_connector +connected sales@brightline\.example +\(\d+ ms\)$/.test(l));
      await run.line((l) => /^✓ bulk_import_leads +total 5, .*created 3.*invalid 2/.test(l));
      await run.line((l) => /^✓ get_agent_run +requires_action \(sequence_approval\)/.test(l));
      await run.line((l) => /^✓ launch_email_sequence +active, .*enrolled 3/.test(l));
      await run.line('Delivered to the sandbox mailbox');
      for (const to of ['maya@rise-bakery.example', 'tom@petal-and-stem.example', 'priya@green-grocer.example']) await run.line((l) => l.includes(`To: `) && l.includes(to));
      await run.line((l) => l.includes('| Hello Maya,'));
      await run.line((l) => l.includes('rents electric cargo bikes to local shops'));
      await run.line((l) => l.includes('1 Example Street, Leeds'));
      await run.line('Done: the sequence is active and its first 3 emails were delivered');

      const mailbox = await t.request('/api/v1/sandbox/messages?limit=50', { token: owner.token });
      expect(((await mailbox.json()) as { data: unknown[] }).data).toHaveLength(3);
    } finally {
      if (run.process.exitCode === null) run.process.kill();
    }
  });

  it('exits 1 with the tool\'s error text when a tool refuses', async () => {
    const owner = await t.signup();
    const { key } = await t.createKey(owner.token, 'agent-run example');
    // The settings allow 300 characters; the first step that is not a lookup refuses 301.
    const args = ['--import', 'tsx', example, '--site', 'https://brand.example/', '--postal-address', 'x'.repeat(301)];
    const run = promisify(execFile)(process.execPath, args, { env: { ...process.env, SERVICE_API_KEY: key, SERVICE_API_BASE: server.url } });
    const failed = await run.then(() => null, (error: { code: number; stdout: string; stderr: string }) => error);
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toMatch(/^✓ get_me /m);
    expect(failed?.stdout).not.toContain('update_workspace_settings');
    expect(failed?.stderr).toMatch(/✗ update_workspace_settings (answered an error|failed)/);
    expect(failed?.stderr).toMatch(/postal_address/);
  });
});
