// The acceptance test of the agent run (docs/agent-run.md): the scripted agent of agent-run-scenario.ts with
// the official MCP client against a listening server with jobs running, the human played at the consent
// page and, in Chromium, in the admin panel. Variants: Streamable HTTP in the 2026-07-28 era with the
// sandbox mailbox; Streamable HTTP in the 2025-11-25 era in live mode against the fake Google; and the
// service-mcp stdio launcher. The database is whichever the suite runs on (PGlite, or PostgreSQL in CI).
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startFakeGoogle, type FakeGoogle } from '../handlers/connectors/fake-google.ts';
import { playHuman } from '../handlers/connectors/human.ts';
import { startSite, type Site } from '../handlers/knowledge/site.ts';
import { sharedBrowser, releaseBrowser } from '../admin/helpers/browser.ts';
import { runAgentScenario, type AgentSession, type ScenarioReport } from './agent-run-scenario.ts';
import { adoptedByLauncher, approveInPanel, reconnectOverHttp, sandboxMailbox, stack } from './agent-run-world.ts';

const bin = fileURLToPath(new URL('../../bin/service-mcp.js', import.meta.url));

let site: Site;
let browser: Browser;
const reports: Array<[string, ScenarioReport]> = [];

beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), sharedBrowser()]);
});
afterAll(async () => {
  for (const [name, r] of reports)
    console.log(
      `agent run (${name}): ${r.agentMs} ms without the human waits (${r.humanMs} ms) — ${r.steps.map((s) => `${s.name} ${s.ms}`).join(', ')}`,
    );
  await releaseBrowser(browser);
  await site?.close();
});

async function httpSession(url: string, credential: string, mode: 'legacy' | 'auto'): Promise<AgentSession> {
  const client = new Client({ name: 'agent-run', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${credential}` } },
    }),
  );
  expect(client.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');
  return { callTool: (name, args) => client.callTool({ name, arguments: args }) as never, close: () => client.close() };
}

async function stdioSession(url: string, credential: string): Promise<AgentSession> {
  const client = new Client({ name: 'agent-run-stdio', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      SERVICE_API_KEY: credential,
      SERVICE_API_BASE: url,
    },
    cwd: '/',
  });
  await client.connect(transport);
  return { callTool: (name, args) => client.callTool({ name, arguments: args }) as never, close: () => client.close() };
}

describe('the agent run, end to end over MCP', () => {
  it('runs over Streamable HTTP (2026-07-28 era) with the sandbox mailbox', { timeout: 180_000 }, async () => {
    const s = await stack();
    try {
      const report = await runAgentScenario(
        {
          siteUrl: site.url,
          connect: (credential) => httpSession(s.url, credential, 'auto'),
          afterSignup: reconnectOverHttp((token) => httpSession(s.url, token, 'auto')),
          consent: async (url, account) => expect((await playHuman(url, { email: account })).status).toBe(200),
          approve: approveInPanel(browser),
          delivered: sandboxMailbox,
        },
        s.bootstrap,
      );
      reports.push(['HTTP, modern era, sandbox', report]);
    } finally {
      await s.close();
    }
  });

  it('runs over Streamable HTTP (2025-11-25 era) in live mode against the fake Google', async () => {
    let redirect = '';
    const google: FakeGoogle = await startFakeGoogle({ redirectUri: () => redirect });
    const s = await stack(google.env());
    redirect = `${s.url}/oauth/callback`;
    try {
      const report = await runAgentScenario(
        {
          siteUrl: site.url,
          connect: (credential) => httpSession(s.url, credential, 'legacy'),
          afterSignup: reconnectOverHttp((token) => httpSession(s.url, token, 'legacy')),
          consent: async (url, account) =>
            expect((await fetch(await google.consent(url, { email: account }))).status).toBe(200),
          approve: approveInPanel(browser),
          delivered: async (_session, account) =>
            Promise.all(
              google.sent
                .filter((m) => m.parsed.from?.text === account)
                .map(async (m) => {
                  const raw = Buffer.from(m.raw, 'base64url').toString('utf8');
                  const parsed = await simpleParser(raw);
                  return {
                    to: (parsed.to as { text: string }).text,
                    subject: parsed.subject ?? '',
                    text: parsed.text ?? '',
                    listUnsubscribe: /^List-Unsubscribe: (.*)\r?$/m.exec(raw)?.[1] ?? null,
                    listUnsubscribePost: /^List-Unsubscribe-Post: (.*?)\r?$/m.exec(raw)?.[1] ?? null,
                  };
                }),
            ),
        },
        s.bootstrap,
      );
      expect(google.refusals).toEqual([]);
      reports.push(['HTTP, 2025-11-25 era, live against the fake Google', report]);
    } finally {
      await s.close();
      await google.close();
    }
  });

  it('runs over the service-mcp stdio launcher, which adopts the credential signup returns', async () => {
    const s = await stack();
    try {
      const report = await runAgentScenario(
        {
          siteUrl: site.url,
          connect: (credential) => stdioSession(s.url, credential),
          afterSignup: adoptedByLauncher,
          consent: async (url, account) => expect((await playHuman(url, { email: account })).status).toBe(200),
          approve: approveInPanel(browser),
          delivered: sandboxMailbox,
        },
        s.bootstrap,
      );
      reports.push(['stdio launcher, sandbox', report]);
    } finally {
      await s.close();
    }
  });
});
