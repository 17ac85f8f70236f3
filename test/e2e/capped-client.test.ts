// The acceptance test of issue 29: a client that, like Cursor, keeps only the first 40 tools tools/list gives
// it and refuses to call any other finishes the seed's agent run (agent-run-scenario.ts: signup, Gmail in
// sandbox with the human consenting, ingest, import, generate, the human approving in Chromium, launch, the
// first messages in the sandbox mailbox) twice: connected with the `outreach` toolset, and in discovery mode
// finding every tool with search_tools. With the official client in both protocol eras over Streamable HTTP
// and over the service-mcp stdio launcher. Without a selection the cap bites: run_agent is not among the
// first 40. One stack, site and browser serve every run; each run signs up its own workspace.
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { toolDescriptors } from '../../src/generated/mcp-tools.ts';
import { playHuman } from '../handlers/connectors/human.ts';
import { startSite, type Site } from '../handlers/knowledge/site.ts';
import { sharedBrowser, releaseBrowser } from '../admin/helpers/browser.ts';
import { runAgentScenario, type AgentSession, type ScenarioWorld } from './agent-run-scenario.ts';
import {
  adoptedByLauncher,
  approveInPanel,
  reconnectOverHttp,
  sandboxMailbox,
  stack,
  type Stack,
} from './agent-run-world.ts';
import { byDiscovery, byName, capTools, RUN_INTENTS, TOOL_CAP, type CappedClient } from './capped-client.ts';

const bin = fileURLToPath(new URL('../../bin/service-mcp.js', import.meta.url));
const needed = Object.keys(RUN_INTENTS);

type Transport = { kind: 'http'; mode: 'auto' | 'legacy' } | { kind: 'stdio' };
type Way = 'toolsets' | 'discover' | 'nothing';

let site: Site;
let browser: Browser;
let s: Stack;
const timings: string[] = [];

beforeAll(async () => {
  [site, browser, s] = await Promise.all([startSite(), sharedBrowser(), stack()]);
});
afterAll(async () => {
  for (const line of timings) console.log(line);
  await s?.close();
  await releaseBrowser(browser);
  await site?.close();
});

async function connect(transport: Transport, way: Way, credential: string): Promise<Client> {
  if (transport.kind === 'http') {
    const query = { toolsets: '?toolsets=outreach', discover: '?tools=discover', nothing: '' }[way];
    const client = new Client({ name: 'capped', version: '1.0.0' }, { versionNegotiation: { mode: transport.mode } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp${query}`), {
        requestInit: { headers: { authorization: `Bearer ${credential}` } },
      }),
    );
    expect(client.getProtocolEra()).toBe(transport.mode === 'auto' ? 'modern' : 'legacy');
    return client;
  }
  const selection = {
    toolsets: { SERVICE_TOOLSETS: 'outreach' },
    discover: { SERVICE_TOOLS: 'discover' },
    nothing: {},
  };
  const client = new Client({ name: 'capped-stdio', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        SERVICE_API_KEY: credential,
        SERVICE_API_BASE: s.url,
        ...selection[way],
      },
      cwd: '/',
    }),
  );
  return client;
}

/** A capped connection whose kept tools are what the run needs: the outreach tools, or the three discovery tools. */
async function cappedSession(
  transport: Transport,
  way: 'toolsets' | 'discover',
  credential: string,
  called: Set<string>,
): Promise<AgentSession> {
  const capped = await capTools(await connect(transport, way, credential));
  if (way === 'toolsets') {
    expect(capped.listed).toBeLessThanOrEqual(TOOL_CAP);
    expect(capped.kept).toEqual(expect.arrayContaining(needed));
    return byName(capped, called);
  }
  expect(capped.kept).toEqual(['search_tools', 'describe_tool', 'call_tool']);
  return byDiscovery(capped, called);
}

const transports: Array<[string, Transport]> = [
  ['Streamable HTTP, 2026-07-28 era', { kind: 'http', mode: 'auto' }],
  ['Streamable HTTP, 2025-11-25 handshake', { kind: 'http', mode: 'legacy' }],
  ['the stdio launcher', { kind: 'stdio' }],
];

describe.each(transports)('a client capped at 40 tools, over %s', (over, transport) => {
  it.each([
    ['connected with ?toolsets=outreach (SERVICE_TOOLSETS), calling the tools by name', 'toolsets'],
    ['in discovery mode, finding each tool with search_tools and calling it through call_tool', 'discover'],
  ] as const)('finishes the agent run %s', { timeout: 240_000 }, async (_how, way) => {
    const called = new Set<string>();
    const began = performance.now();
    const open = (credential: string) => cappedSession(transport, way, credential, called);
    const world: ScenarioWorld = {
      siteUrl: site.url,
      connect: open,
      afterSignup: transport.kind === 'http' ? reconnectOverHttp(open) : adoptedByLauncher,
      consent: async (url, account) => expect((await playHuman(url, { email: account })).status).toBe(200),
      approve: approveInPanel(browser),
      delivered: sandboxMailbox,
    };
    const report = await runAgentScenario(world, s.bootstrap);
    expect([...called].sort()).toEqual([...needed].sort());
    timings.push(
      `capped run (${over}, ${way}): ${Math.round(performance.now() - began)} ms in all, ${report.agentMs} ms without ` +
        `the human waits (${report.humanMs} ms) — ${report.steps.map((step) => `${step.name} ${step.ms}`).join(', ')}`,
    );
  });
});

describe('a client capped at 40 tools, with no selection', () => {
  it.each([transports[0], transports[2]])(
    'keeps the first 40 of every tool over %s, which leave out run_agent, and refuses to call it',
    async (_over, transport) => {
      const capped: CappedClient = await capTools(await connect(transport, 'nothing', s.bootstrap));
      try {
        expect(capped.listed).toBe(toolDescriptors.length);
        expect(capped.kept).toHaveLength(TOOL_CAP);
        const missing = needed.filter((name) => !capped.kept.includes(name));
        expect(missing).toContain('run_agent');
        await expect(capped.callTool('run_agent', { agent_id: 'email-sequence-generator' })).rejects.toThrow(
          /the capped client has no tool run_agent/,
        );
      } finally {
        await capped.close();
      }
    },
  );
});
