// The packed `@service-mcp/sdk` and `@service-mcp/launcher` installed from their tarballs into an empty project outside
// the repository, used there as their READMEs say: a consumer compiled against the SDK's declarations and
// run against a listening server, and the launcher started through npx and driven by the official client.
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { toolDescriptors, toolsets } from '../../src/generated/mcp-tools.ts';
import { createTestApp, listen, uniqueEmail, type TestApp } from '../helpers/app.ts';
import { clientEnv, installPackages, run, withoutNpmWarnings, type InstalledProject } from './install.ts';

const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const contractVersion = /\n {2}version: (\S+)/.exec(
  readFileSync(fileURLToPath(new URL('../../openapi/openapi.yaml', import.meta.url)), 'utf8'),
)![1];

let project: InstalledProject;
let api: TestApp;
let server: Awaited<ReturnType<typeof listen>>;
let key: string;
/** A port nothing listens on any more. */
let closedUrl: string;

// Building, packing and installing the packages passed the default 120 s bound on a hook under both CI legs' load
// (the whole file took 202 s and 249 s in the runs before). A bound on a hang, not on speed.
beforeAll(async () => {
  [project, api] = await Promise.all([installPackages('installed'), createTestApp()]);
  server = await listen(api.app);
  const owner = await api.signup();
  key = (await api.createKey(owner.token)).key;
  const closed = await listen(api.app);
  await closed.close();
  closedUrl = closed.url;
}, 360_000);
afterAll(async () => {
  await server?.close();
  await api?.close();
  project?.remove();
});

/** Compiles `files` in the project against what is installed there; the DOM lib stands in for @types/node. */
async function compile(files: string[]): Promise<{ code: number; output: string }> {
  const config = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2023', 'DOM', 'DOM.Iterable'],
      types: [],
      strict: true,
      outDir: 'out',
    },
    files,
  };
  writeFileSync(join(project.dir, 'tsconfig.json'), JSON.stringify(config));
  try {
    const { stdout } = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project.dir });
    return { code: 0, output: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, output: e.stdout };
  }
}

describe('the installed @service-mcp/sdk', () => {
  it('is built from the SDK files of src/generated, copied into the package by the build', () => {
    for (const name of ['types.ts', 'sdk-runtime.ts', 'sdk.ts']) {
      const copy = readFileSync(
        fileURLToPath(new URL(`../../packages/sdk/src/generated/${name}`, import.meta.url)),
        'utf8',
      );
      expect(copy).toBe(readFileSync(fileURLToPath(new URL(`../../src/generated/${name}`, import.meta.url)), 'utf8'));
    }
  });

  it('carries the contract version and depends on openapi-fetch alone', () => {
    const manifest = JSON.parse(readFileSync(join(project.dir, 'node_modules/@service-mcp/sdk/package.json'), 'utf8'));
    expect(manifest.version).toBe(contractVersion);
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
  });

  // One tsc run for the three files (each run took 20-25 s under both CI legs): tsc reports each file's errors
  // under its name, and writes the others' output all the same.
  let compiled: Promise<{ code: number; output: string }> | undefined;
  const compileAll = () => {
    compiled ??= (() => {
      copyFileSync(fixture('wrong-arguments.ts.txt'), join(project.dir, 'wrong-arguments.ts'));
      copyFileSync(fixture('consumer.ts.txt'), join(project.dir, 'consumer.ts'));
      const readme = readFileSync(fileURLToPath(new URL('../../packages/sdk/README.md', import.meta.url)), 'utf8');
      const example = /```ts\n([\s\S]*?)```/.exec(readme)![1];
      // The example reads process.env; the project has no @types/node.
      writeFileSync(
        join(project.dir, 'readme-example.ts'),
        `declare const process: { env: Record<string, string | undefined> };\n${example}`,
      );
      return compile(['wrong-arguments.ts', 'consumer.ts', 'readme-example.ts']);
    })();
    return compiled;
  };
  const wrongArgumentLines = (output: string) =>
    [...new Set([...output.matchAll(/^wrong-arguments\.ts\((\d+),/gm)].map((m) => Number(m[1])))].sort();

  it('refuses to compile wrong arguments', async () => {
    const { code, output } = await compileAll();
    expect(code).not.toBe(0);
    expect(wrongArgumentLines(output)).toEqual([6, 7, 8, 9]);
  });

  it('compiles the README example and a consumer, and runs the consumer against a listening server', async () => {
    const { output } = await compileAll();
    // Every error tsc reported is in the file meant to have them.
    expect(
      output.split('\n').filter((line) => /^\S+\.ts\(/.test(line) && !line.startsWith('wrong-arguments.ts(')),
    ).toEqual([]);
    expect(wrongArgumentLines(output)).toEqual([6, 7, 8, 9]);
    const { stdout } = await run(process.execPath, ['out/consumer.js'], {
      cwd: project.dir,
      env: clientEnv({ API_BASE: server.url, API_KEY: key }),
    });
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({
      replayed: 'lead1@example.com',
      pageCount: 2,
      emails: ['lead1@example.com', 'lead2@example.com', 'lead3@example.com'],
      problem: { status: 404, type: 'ApiProblemError' },
    });
    expect(result.workspace).toMatch(/^ws_/);
    expect(result.problem.code).toEqual(expect.any(String));
  });
});

describe('the installed @service-mcp/launcher', () => {
  it('depends on the SDK package and the MCP server SDK alone', () => {
    const manifest = JSON.parse(
      readFileSync(join(project.dir, 'node_modules/@service-mcp/launcher/package.json'), 'utf8'),
    );
    expect(manifest.version).toBe(contractVersion);
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@modelcontextprotocol/server', '@service-mcp/sdk']);
  });

  it('starts through npx, lists the generated tools and calls one with the key', async () => {
    const client = new Client({ name: 'packages-test', version: '1' });
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['service-mcp'],
      cwd: project.dir,
      env: clientEnv({ SERVICE_API_KEY: key, SERVICE_API_BASE: server.url }),
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(toolDescriptors.map((t) => t.name));
      const me = await client.callTool({ name: 'get_me', arguments: {} });
      expect(me.isError).toBeFalsy();
      expect((me.structuredContent as { workspace: { id: string } }).workspace.id).toMatch(/^ws_/);
      const bad = await client.callTool({ name: 'get_lead', arguments: {} });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('reads SERVICE_TOOLSETS, SERVICE_READONLY and SERVICE_TOOLS as the in-repo launcher does', async () => {
    const connect = async (env: Record<string, string>) => {
      const client = new Client({ name: 'packages-test', version: '1' });
      const transport = new StdioClientTransport({
        command: join(project.dir, 'node_modules/.bin/service-mcp'),
        cwd: project.dir,
        env: clientEnv({ SERVICE_API_KEY: key, SERVICE_API_BASE: server.url, ...env }),
      });
      await client.connect(transport);
      return client;
    };
    const leads = toolsets.find((set) => set.name === 'leads')!.tools;
    const readOnly = await connect({ SERVICE_TOOLSETS: 'leads', SERVICE_READONLY: 'true' });
    try {
      const names = (await readOnly.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(
        toolDescriptors.filter((d) => leads.includes(d.name) && d.annotations.readOnlyHint).map((d) => d.name),
      );
      const refused = (await readOnly.callTool({ name: 'get_me', arguments: {} })) as { content: { text: string }[] };
      expect(refused.content[0].text).toMatch(/not available on this connection/);
    } finally {
      await readOnly.close();
    }
    const discover = await connect({ SERVICE_TOOLS: 'discover' });
    try {
      expect((await discover.listTools()).tools.map((t) => t.name)).toEqual([
        'search_tools',
        'describe_tool',
        'call_tool',
      ]);
    } finally {
      await discover.close();
    }
  });

  it('acts in the workspace a signup call returns, as the in-repo launcher does', async () => {
    const client = new Client({ name: 'packages-test', version: '1' });
    const command = join(project.dir, 'node_modules/.bin/service-mcp');
    await client.connect(
      new StdioClientTransport({
        command,
        cwd: project.dir,
        env: clientEnv({ SERVICE_API_KEY: key, SERVICE_API_BASE: server.url }),
      }),
    );
    try {
      const args = {
        email: uniqueEmail('packaged'),
        password: 'correct horse battery',
        name: 'Agent',
        workspace_name: 'Made through the package',
      };
      const signup = await client.callTool({ name: 'signup', arguments: args });
      expect((signup.content as { text: string }[])[1].text).toMatch(
        /^service-mcp now acts with the credential this call returned/,
      );
      const me = await client.callTool({ name: 'get_me', arguments: {} });
      expect(me.structuredContent).toMatchObject({
        workspace: { name: 'Made through the package' },
        credential: { type: 'jwt' },
      });
    } finally {
      await client.close();
    }
  });

  it('starts with `npx -y` from the two tarballs in a folder with no project', async () => {
    const { sdk, launcher } = project.tarballs;
    const client = new Client({ name: 'packages-test', version: '1' });
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['-y', '--package', sdk, '--package', launcher, 'service-mcp'],
      cwd: tmpdir(),
      // The dependencies are in the npm cache since beforeAll's install: no registry round trip is needed.
      env: clientEnv({ SERVICE_API_KEY: key, SERVICE_API_BASE: server.url, npm_config_prefer_offline: 'true' }),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk));
    await client.connect(transport).catch((error: unknown) => {
      throw new Error(`npx -y did not start the launcher: ${String(error)}; its stderr: ${withoutNpmWarnings(stderr)}`);
    });
    try {
      expect((await client.listTools()).tools).toHaveLength(toolDescriptors.length);
    } finally {
      await client.close();
    }
  }, 180_000);

  it('answers tools/list from a cold start', async () => {
    const child = spawn(join(project.dir, 'node_modules/.bin/service-mcp'), [], {
      cwd: project.dir,
      env: clientEnv({ SERVICE_API_KEY: key, SERVICE_API_BASE: server.url }),
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ];
    child.stdin.write(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    await expect.poll(() => stdout.split('\n').filter(Boolean).length, { timeout: 20_000 }).toBe(2);
    child.stdin.end();
    await new Promise((resolve) => child.on('close', resolve));
    const [init, list] = stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(init.result.serverInfo).toEqual({ name: 'service-mcp', version: contractVersion });
    expect(list.result.tools).toHaveLength(toolDescriptors.length);
  });

  it.each([
    ['no key', {}, /^service-mcp: SERVICE_API_KEY is not set; .*an API key from Settings → API keys/],
    [
      'a rejected key',
      { SERVICE_API_KEY: 'svc_revoked1_nope' },
      /^service-mcp: the API at .* rejected SERVICE_API_KEY \(HTTP 401\); .*Use an API key from Settings → API keys\.$/,
    ],
    [
      'an API that is not there',
      { SERVICE_API_KEY: 'svc_x', SERVICE_API_BASE: 'closed' },
      /^service-mcp: cannot reach the API at http:\/\/127\.0\.0\.1:\d+ \(SERVICE_API_BASE\): fetch failed \(ECONNREFUSED\)\.$/,
    ],
  ])(
    'fails with one stderr line through npx given %s, as the in-repo launcher does',
    async (_name, extra: Record<string, string>, line) => {
      const base = extra.SERVICE_API_BASE === 'closed' ? closedUrl : server.url;
      const env = clientEnv({ ...extra, SERVICE_API_BASE: base });
      const result = await run('npx', ['service-mcp'], { cwd: project.dir, env }).then(
        () => ({ code: 0, stdout: '', stderr: '' }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(result.code).not.toBe(0);
      expect(result.stdout).toBe('');
      const lines = withoutNpmWarnings(result.stderr).trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(line);
    },
  );
});
