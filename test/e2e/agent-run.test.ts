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
import type { TestApp } from '../helpers/app.ts';
import { listenOnReservedPort } from '../handlers/connectors/listen.ts';
import { startFakeGoogle, type FakeGoogle } from '../handlers/connectors/fake-google.ts';
import { playHuman } from '../handlers/connectors/human.ts';
import { startSite, type Site } from '../handlers/knowledge/site.ts';
import { launchBrowser, openPage, signInThroughForm } from '../admin/helpers/browser.ts';
import {
  call,
  runAgentScenario,
  type AgentSession,
  type Delivered,
  type ScenarioReport,
  type ScenarioWorld,
} from './agent-run-scenario.ts';

const env = {
  OUTBOUND_ALLOW_PRIVATE: 'true',
  KNOWLEDGE_CRAWL_DELAY_MS: '0',
  SEQUENCE_SEND_SPACING_MS: '0',
  MCP_ALLOWED_ORIGINS: '',
};
const bin = fileURLToPath(new URL('../../bin/service-mcp.js', import.meta.url));

let site: Site;
let browser: Browser;
const reports: Array<[string, ScenarioReport]> = [];

beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), launchBrowser()]);
});
afterAll(async () => {
  for (const [name, r] of reports)
    console.log(
      `agent run (${name}): ${r.agentMs} ms without the human waits (${r.humanMs} ms) — ${r.steps.map((s) => `${s.name} ${s.ms}`).join(', ')}`,
    );
  await browser?.close();
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

async function approveInPanel(url: string, email: string, password: string): Promise<void> {
  const admin = await openPage(browser, new URL(url).origin);
  await admin.page.goto(url);
  await signInThroughForm(admin.page, email, password);
  await admin.page.getByRole('button', { name: 'Approve' }).click();
  await admin.page
    .getByRole('dialog', { name: 'Approve this sequence?' })
    .getByRole('button', { name: /^Approve revision/ })
    .click();
  await admin.page.getByText('This sequence is approved: there is nothing to decide here.').waitFor();
  await admin.context.close();
}

const sandboxMailbox = async (session: AgentSession, account: string): Promise<Delivered[]> => {
  const page = await call(session, 'list_sandbox_messages', { limit: 50 });
  return page.data
    .filter((m: any) => m.account_email === account)
    .map((m: any) => ({
      to: m.to,
      subject: m.subject,
      text: m.text,
      listUnsubscribe: m.list_unsubscribe,
      listUnsubscribePost: m.list_unsubscribe_post,
    }));
};

function reconnectOverHttp(url: string, mode: 'legacy' | 'auto'): ScenarioWorld['afterSignup'] {
  return async (session, token, result) => {
    const note = (result.content ?? []).map((c) => c.text ?? '').join('\n');
    expect(note).toMatch(/reconnect/i);
    await session.close();
    return httpSession(url, token, mode);
  };
}

interface Stack {
  t: TestApp;
  url: string;
  bootstrap: string;
  close(): Promise<void>;
}

async function stack(extraEnv: Record<string, string> = {}): Promise<Stack> {
  const { app: t, server } = await listenOnReservedPort({ jobs: 'work', env: { ...env, ...extraEnv } });
  const someone = await t.signup();
  const { key } = await t.createKey(someone.token, 'bootstrap');
  return {
    t,
    url: server.url,
    bootstrap: key,
    close: async () => {
      await server.close();
      await t.close();
    },
  };
}

describe('the agent run, end to end over MCP', () => {
  it('runs over Streamable HTTP (2026-07-28 era) with the sandbox mailbox', { timeout: 180_000 }, async () => {
    const s = await stack();
    try {
      const report = await runAgentScenario(
        {
          siteUrl: site.url,
          connect: (credential) => httpSession(s.url, credential, 'auto'),
          afterSignup: reconnectOverHttp(s.url, 'auto'),
          consent: async (url, account) => expect((await playHuman(url, { email: account })).status).toBe(200),
          approve: approveInPanel,
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
          afterSignup: reconnectOverHttp(s.url, 'legacy'),
          consent: async (url, account) =>
            expect((await fetch(await google.consent(url, { email: account }))).status).toBe(200),
          approve: approveInPanel,
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
          afterSignup: async (session, _token, result) => {
            expect((result.content ?? []).map((c) => c.text ?? '').join('\n')).toMatch(/service-mcp now acts with/);
            return session;
          },
          consent: async (url, account) => expect((await playHuman(url, { email: account })).status).toBe(200),
          approve: approveInPanel,
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
