// The guide served to real clients: the official v2 client in both protocol eras, over Streamable HTTP
// (POST /mcp of the real app) and over the service-mcp stdio launcher, reads the instructions, renders the
// prompts and reads the resources with an API key of workspace A, which never sees workspace B's sequence.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { GUIDE_INSTRUCTIONS } from '../../src/mcp/guide.ts';
import { createTestApp, listen, type TestApp } from '../helpers/app.ts';

const bin = fileURLToPath(new URL('../../bin/service-mcp.js', import.meta.url));

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let keyA: string;
let sequenceA: string;
let sequenceB: string;

async function createSequence(token: string, name: string): Promise<string> {
  const steps = [
    { subject: 'A question about {{company | "your team"}}', body: 'Hello there.' },
    { wait_days: 3, subject: 'Following up', body: 'Just checking in.' },
  ];
  const res = await t.request('/api/v1/sequences', { method: 'POST', token, json: { name, steps } });
  if (res.status !== 201) throw new Error(`create sequence: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

beforeAll(async () => {
  t = await createTestApp();
  server = await listen(t.app);
  const [a, b] = [await t.signup(), await t.signup()];
  keyA = (await t.createKey(a.token, 'guide test')).key;
  sequenceA = await createSequence(a.token, 'Spring launch');
  sequenceB = await createSequence(b.token, 'Secret plan of B');
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

type Era = 'legacy' | 'auto';

async function overHttp(mode: Era): Promise<Client> {
  const client = new Client({ name: 'guide-test', version: '1' }, { versionNegotiation: { mode } });
  const requestInit = { headers: { authorization: `Bearer ${keyA}` } };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit }));
  return client;
}

async function overStdio(mode: Era): Promise<Client> {
  const client = new Client({ name: 'guide-test', version: '1' }, { versionNegotiation: { mode } });
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SERVICE_API_KEY: keyA };
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin],
      env: { ...env, SERVICE_API_BASE: server.url },
      cwd: '/',
    }),
  );
  return client;
}

const connections: [string, () => Promise<Client>][] = [
  ['HTTP, 2025-11-25 handshake', () => overHttp('legacy')],
  ['HTTP, 2026-07-28 discovery', () => overHttp('auto')],
  ['stdio launcher, 2025-11-25 handshake', () => overStdio('legacy')],
  ['stdio launcher, 2026-07-28 discovery', () => overStdio('auto')],
];

const text = (result: { contents: unknown[] }) => (result.contents[0] as { text: string }).text;

describe.each(connections)('the guide over %s', (_name, connect) => {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client?.close());

  it('returns the instructions, under 300 tokens', () => {
    expect(client.getInstructions()).toBe(GUIDE_INSTRUCTIONS);
    expect(GUIDE_INSTRUCTIONS.length / 4).toBeLessThan(300);
  });

  it('advertises prompts and resources', () => {
    expect(client.getServerCapabilities()).toMatchObject({ prompts: {}, resources: {}, tools: {} });
  });

  it('lists run_outreach and weekly_report with their arguments', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['run_outreach', 'weekly_report']);
    const run = prompts[0].arguments?.map((a) => [a.name, a.required]);
    expect(run).toEqual([
      ['website_url', true],
      ['leads_source', true],
      ['goal', true],
      ['audience', true],
    ]);
  });

  it('renders run_outreach with its arguments as step-by-step text naming the tools', async () => {
    const result = await client.getPrompt({
      name: 'run_outreach',
      arguments: {
        website_url: 'https://brand.example',
        leads_source: 'https://brand.example/leads.csv',
        goal: 'book a demo',
        audience: 'heads of growth',
      },
    });
    const message = result.messages[0];
    expect(message.role).toBe('user');
    const body = message.content.type === 'text' ? message.content.text : '';
    expect(body).toContain('https://brand.example/leads.csv');
    expect(body).toMatch(/start_connector_oauth[\s\S]*ingest_url_into_knowledge[\s\S]*launch_email_sequence/);
  });

  it('renders weekly_report with the default window when no argument is given', async () => {
    const result = await client.getPrompt({ name: 'weekly_report' });
    const content = result.messages[0].content;
    expect(content.type === 'text' && content.text).toContain('last 7 days');
  });

  it('refuses a prompt missing a required argument, naming it', async () => {
    const missing = client.getPrompt({ name: 'run_outreach', arguments: { website_url: 'https://brand.example' } });
    await expect(missing).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('leads_source') });
  });

  it('lists the workspace settings and the docs as resources', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain('workspace://settings');
    expect(uris).toContain('docs://README.md#layout');
    expect(uris).toContain('docs://docs/replies.md');
  });

  it('lists the sequence template', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toContain('sequence://{sequence_id}');
  });

  it('reads a docs page whole and a README section', async () => {
    expect(text(await client.readResource({ uri: 'docs://docs/replies.md' }))).toMatch(/^# /);
    expect(text(await client.readResource({ uri: 'docs://README.md#layout' }))).toMatch(/^## Layout\n/);
  });

  it("reads the workspace's settings as text", async () => {
    const settings = text(await client.readResource({ uri: 'workspace://settings' }));
    expect(settings).toContain('# Workspace settings');
    expect(settings).toContain('Postal address: none');
  });

  it("reads the key's own sequence as text with its steps and waits", async () => {
    const sequence = text(await client.readResource({ uri: `sequence://${sequenceA}` }));
    expect(sequence).toContain('# Spring launch');
    expect(sequence).toContain('Status: draft');
    expect(sequence).toContain('1. first: A question about {{company | "your team"}}');
    expect(sequence).toContain('2. after 3 day(s)');
  });

  it("answers another workspace's sequence as not found", async () => {
    const read = client.readResource({ uri: `sequence://${sequenceB}` });
    await expect(read).rejects.toMatchObject({ code: -32602, data: { uri: `sequence://${sequenceB}` } });
  });

  it('answers an unknown resource URI with an error naming what can be read', async () => {
    const read = client.readResource({ uri: 'crm://contacts' });
    await expect(read).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('Unknown resource') });
    const page = client.readResource({ uri: 'docs://docs/nope.md' });
    await expect(page).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('No docs page') });
  });
});

describe('resources over the stdio launcher after a signup', () => {
  it('reads with the credential the launcher adopted, in the new workspace', async () => {
    const client = await overStdio('legacy');
    try {
      const signup = await client.callTool({
        name: 'signup',
        arguments: {
          email: `guide.${Date.now()}@example.com`,
          password: 'correct horse battery',
          name: 'New Owner',
          workspace_name: 'Fresh Workspace',
        },
      });
      expect(signup.isError).toBeFalsy();
      // The key's workspace held this sequence; the adopted login's workspace does not.
      const read = client.readResource({ uri: `sequence://${sequenceA}` });
      await expect(read).rejects.toMatchObject({ code: -32602, data: { uri: `sequence://${sequenceA}` } });
    } finally {
      await client.close();
    }
  });
});
