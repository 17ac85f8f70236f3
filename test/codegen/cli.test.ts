// The real CLI (scripts/codegen.ts) on temp specs and output dirs: writing, --check, failures; and the
// properties every run must have: byte-identical output for one input, one header on every file.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headerText } from '../../scripts/codegen/generate.ts';
import type { JsonObject } from '../../scripts/codegen/load.ts';
import { generateDoc, generateFrom, removeDir, repoRoot, run, tempDir, writeDocuments } from '../helpers/codegen.ts';
import { locationsAndMedia } from './synthetic-dialects.ts';
import { recursiveSchemas } from './synthetic-specs.ts';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/codegen.ts', ...args], {
      cwd: repoRoot,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const spec = (paths: JsonObject): JsonObject => ({ openapi: '3.1.0', info: { title: 'cli', version: '1' }, paths });
const listLeads = { '/leads': { get: { operationId: 'listLeads', responses: { '200': { description: 'ok' } } } } };

describe('scripts/codegen.ts', () => {
  let dir: string;
  let out: string;
  let specFile: string;

  beforeAll(async () => {
    dir = tempDir('cli');
    out = join(dir, 'out');
    specFile = join(dir, 'openapi.json');
    writeDocuments(dir, { 'openapi.json': spec(listLeads) });
    const written = await cli(['--spec', specFile, '--out', out]);
    expect(written).toMatchObject({ code: 0, stdout: expect.stringContaining('wrote 6 files') });
  });
  afterAll(() => removeDir(dir));

  it('exits 0 with --check when the files are fresh', async () => {
    const result = await cli(['--spec', specFile, '--out', out, '--check']);
    expect(result).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('generated files are up to date (6 files'),
    });
  });

  it('exits 1 with --check, naming each stale or missing file and no fresh one', async () => {
    const routes = join(out, 'routes.ts');
    const before = readFileSync(routes, 'utf8');
    writeFileSync(routes, `${before}// hand edit\n`);
    rmSync(join(out, 'sdk.ts'));
    const result = await cli(['--spec', specFile, '--out', out, '--check']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/generated files are stale: .*routes\.ts, .*sdk\.ts\n/);
    expect(result.stderr).not.toMatch(/types\.ts|handlers\.ts|mcp-tools/);
    await cli(['--spec', specFile, '--out', out]);
    expect(readFileSync(routes, 'utf8')).toBe(before);
  });

  it('exits 1 when the spec changed after generation', async () => {
    const changed = join(dir, 'changed.json');
    writeDocuments(dir, {
      'changed.json': spec({ ...listLeads, '/ping': { get: { responses: { '204': { description: 'pong' } } } } }),
    });
    const result = await cli(['--spec', changed, '--out', out, '--check']);
    expect(result).toMatchObject({ code: 1, stderr: expect.stringContaining('stale') });
  });

  it('exits 1 with a message naming the manifest entry', async () => {
    writeDocuments(dir, { 'mcp-tools.yaml': { tools: { listLeeds: { title: 'typo' } } } });
    const result = await cli([
      '--spec',
      specFile,
      '--manifest',
      join(dir, 'mcp-tools.yaml'),
      '--out',
      join(dir, 'unused'),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('codegen failed:');
    expect(result.stderr).toContain('tools.listLeeds names an unknown operationId "listLeeds"');
  });

  it('exits 1 on a document that is not OpenAPI 3', async () => {
    writeDocuments(dir, { 'swagger.json': { swagger: '2.0', info: { title: 'old', version: '1' }, paths: {} } });
    const result = await cli(['--spec', join(dir, 'swagger.json'), '--out', join(dir, 'unused')]);
    expect(result).toMatchObject({ code: 1, stderr: expect.stringContaining('unsupported OpenAPI version "2.0"') });
  });

  it('prints warnings and still writes', async () => {
    writeDocuments(dir, {
      'long.json': spec({
        '/x': { get: { operationId: 'x'.repeat(50), responses: { '204': { description: 'none' } } } },
      }),
    });
    const result = await cli(['--spec', join(dir, 'long.json'), '--out', join(dir, 'long')]);
    expect(result).toMatchObject({ code: 0, stderr: expect.stringContaining('is longer than 48 characters') });
  });
});

describe('generate', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach(removeDir));

  it.each([
    ['recursive schemas', recursiveSchemas],
    ['every parameter location and media type', locationsAndMedia],
  ])('emits byte-identical files on two runs over %s', async (_, build) => {
    const dir = tempDir('determinism');
    dirs.push(dir);
    const first = await generateDoc(dir, build());
    const second = await generateFrom(join(dir, 'openapi.json'));
    expect(second.files.map((f) => f.name)).toEqual(first.files.map((f) => f.name));
    for (const [i, file] of first.files.entries()) expect(second.files[i].content, file.name).toBe(file.content);
  });

  it('opens every emitted file with the one generated-file header', async () => {
    const dir = tempDir('header');
    dirs.push(dir);
    writeDocuments(dir, {
      'openapi.json': spec(listLeads),
      'mcp-tools.yaml': { tools: { listLeads: { title: 'List leads' } } },
    });
    const { files } = await generateFrom(join(dir, 'openapi.json'), join(dir, 'mcp-tools.yaml'));
    const text = headerText('openapi.json', 'mcp-tools.yaml');
    expect(text).toBe(
      'generated by scripts/codegen.ts from openapi.json and mcp-tools.yaml — do not edit — regenerate with npm run codegen',
    );
    expect(files.map((f) => f.name)).toEqual([
      'types.ts',
      'routes.ts',
      'handlers.ts',
      'sdk-runtime.ts',
      'sdk.ts',
      'mcp-tools.ts',
      'mcp-tools.json',
    ]);
    for (const file of files.filter((f) => f.name.endsWith('.ts'))) {
      expect(file.content.split('\n')[0], file.name).toBe(`// ${text}`);
      expect(file.content.split(text).length - 1, file.name).toBe(1);
    }
    const json = files.find((f) => f.name === 'mcp-tools.json')!;
    expect(JSON.parse(json.content).$comment).toBe(text);
  });

  it('names a relative spec path in the header as given', () => {
    expect(headerText('openapi/openapi.yaml', 'mcp-tools.yaml')).toBe(
      'generated by scripts/codegen.ts from openapi/openapi.yaml and mcp-tools.yaml — do not edit — regenerate with npm run codegen',
    );
  });
});
