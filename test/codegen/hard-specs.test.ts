// Documents the repository owns, built in code (test/codegen/synthetic-specs.ts): recursion, odd names, both
// dialects, every location and media type, several files, thousands of operations, and the shapes of the
// optional real corpus (synthetic-real-shapes.ts). Each must generate tools with unique valid names and strict,
// compilable schemas; the output must type-check.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../scripts/codegen/load.ts';
import { TOOL_SCHEMA_BUDGET } from '../../scripts/codegen/tools.ts';
import {
  ajvCompileError,
  generateDoc,
  generateFrom,
  removeDir,
  strictAjv,
  strictProfileProblems,
  tempDir,
  toolNameProblems,
  typecheck,
  writeDocuments,
  writeFiles,
  type GeneratedRun,
  type ToolDescriptorJson,
} from '../helpers/codegen.ts';
import { petstoreYaml } from './synthetic-real-shapes.ts';
import { externalFiles, hardSpecs, manyOperations } from './synthetic-specs.ts';

const LARGE_RESOURCES = 750; // 4 operations each: 3000 operations
const runs = new Map<string, GeneratedRun>();
const outDirs = new Map<string, string>();
let root: string;

async function keep(name: string, run: Promise<GeneratedRun>): Promise<void> {
  const result = await run;
  runs.set(name, result);
  const out = join(root, `${name}-out`);
  writeFiles(out, result.files);
  outDirs.set(name, out);
}

beforeAll(async () => {
  root = tempDir('hard');
  for (const [name, build] of Object.entries(hardSpecs)) await keep(name, generateDoc(join(root, name), build()));
  writeDocuments(join(root, 'external-files'), externalFiles());
  await keep('external-files', generateFrom(join(root, 'external-files/openapi.yaml')));
  writeFileSync(join(root, 'petstore.yaml'), petstoreYaml);
  await keep('petstore-yaml', generateFrom(join(root, 'petstore.yaml')));
  await keep('200-operations', generateDoc(join(root, '200-operations'), manyOperations(50)));
  await keep('3000-operations', generateDoc(join(root, '3000-operations'), manyOperations(LARGE_RESOURCES)));
}, 120_000);
afterAll(() => removeDir(root));

const names = [...Object.keys(hardSpecs), 'external-files', 'petstore-yaml', '200-operations', '3000-operations'];
const run = (name: string) => runs.get(name)!;
const file = (name: string, file: string) => run(name).files.find((f) => f.name === file)!.content;
const toolNamed = (name: string, tool: string): ToolDescriptorJson => run(name).tools.find((t) => t.name === tool)!;

function schemaProblems(tools: ToolDescriptorJson[]): string[] {
  const ajv = strictAjv();
  const problems: string[] = [];
  for (const tool of tools) {
    for (const [side, schema] of [
      ['input', tool.inputSchema],
      ['output', tool.outputSchema],
    ] as const) {
      if (!schema) continue;
      const error = ajvCompileError(ajv, schema);
      if (error) problems.push(`${tool.name}: ${error}`);
      problems.push(...strictProfileProblems(schema, side).map((p) => `${tool.name}: ${p}`));
      if (JSON.stringify(schema).length > TOOL_SCHEMA_BUDGET) problems.push(`${tool.name}: over the size budget`);
    }
  }
  return problems;
}

describe('codegen on hard synthetic documents', () => {
  it.each(names)('gives every operation of %s a tool with a unique, valid name', (name) => {
    const tools = run(name).tools;
    expect(toolNameProblems(tools.map((t) => t.name))).toEqual([]);
    expect(tools.length).toBe(file(name, 'routes.ts').match(/: createRoute\(\{/g)?.length ?? 0);
  });

  it.each(names)('emits strict, compilable tool schemas within the size budget for %s', (name) => {
    // The 3000 operations repeat one pattern; every 7th tool covers each shape and keeps Ajv's compile time down.
    const tools = name === '3000-operations' ? run(name).tools.filter((_, i) => i % 7 === 0) : run(name).tools;
    expect(schemaProblems(tools)).toEqual([]);
  });

  it('type-checks everything emitted except the 3000-operation document, in one tsc run', async () => {
    const dirs = names.filter((n) => n !== '3000-operations').map((n) => outDirs.get(n)!);
    expect(await typecheck(dirs, 'hard-tsc')).toBe('');
  }, 180_000);

  // About 1.5 minutes of tsc on two cores: run with CODEGEN_LARGE_TSC=1.
  it.runIf(process.env.CODEGEN_LARGE_TSC)(
    'type-checks the 3000-operation document',
    async () => {
      expect(await typecheck([outDirs.get('3000-operations')!], 'large-tsc')).toBe('');
    },
    600_000,
  );
});

describe('what the hard documents exercise', () => {
  it('makes a tool per operation of a 3000-operation document', () => {
    const tools = run('3000-operations').tools;
    expect(tools).toHaveLength(LARGE_RESOURCES * 4);
    expect(tools.at(-1)).toMatchObject({
      name: `delete_resource_${LARGE_RESOURCES - 1}`,
      annotations: { destructiveHint: true },
    });
  });

  it('renames a duplicate operationId and says so', () => {
    expect(run('odd-names').warnings).toContainEqual(
      expect.stringContaining('operationId "duplicate" of GET /dup/two is used before'),
    );
    expect(toolNamed('odd-names', 'duplicate_2').binding).toMatchObject({
      operationId: 'duplicate_2',
      path: '/dup/two',
    });
  });

  it('keeps odd path characters in the types, as written', () => {
    const types = file('odd-names', 'types.ts');
    expect(types).toContain('"/tilde~/50%/a b": {');
    expect(types).toContain('"/users/{id}.json": {');
  });

  it("keeps openapi-typescript's discriminator rewriting out of the routes", () => {
    const routes = file('openapi-3.0-dialect', 'routes.ts');
    expect(routes).toContain(
      'export const DogSchema: z.ZodType = z.intersection(z.looseObject({\n  "kind": z.string().optional(),\n}), z.looseObject({\n  "barks": z.boolean(),\n}));',
    );
    expect(routes).not.toContain('z.enum(["Dog"])');
  });

  it('leaves out parameter defaults of the wrong type instead of emitting code that does not compile', () => {
    const routes = file('openapi-3.0-dialect', 'routes.ts');
    expect(routes).toContain('"page": z.coerce.number().int().optional(),');
    expect(routes).toContain('"flag": z.stringbool().optional(),');
    expect(routes).toContain('"mode": z.enum(["a","b"]).optional(),');
  });

  it('cuts type-only reference cycles openapi-typescript cannot write', () => {
    expect(file('recursive-schemas', 'types.ts')).toContain('Tree: unknown[];');
  });

  it('bundles external files: local references inside them, references back to the entry, and a cycle across files', () => {
    const create = toolNamed('external-files', 'createPet');
    const props = create.inputSchema.properties as JsonObject;
    expect(props.tag).toEqual({ type: 'string', maxLength: 20 });
    expect(props.common).toEqual({ type: 'object', properties: { version: { type: 'integer' } } });
    expect((props.owner as JsonObject).properties).toMatchObject({ pets: { type: 'array' } });
    expect(toolNamed('external-files', 'listPets').binding.args).toEqual([
      { name: 'limit', in: 'query', key: 'limit' },
    ]);
    expect(run('external-files').tools.map((t) => t.name)).toEqual(['listPets', 'createPet', 'listOwners', 'postTree']);
    const types = file('external-files', 'types.ts');
    expect(types).toMatch(/\n {8}Tree: \{/);
    expect(types).toMatch(/\n {8}Pet: \{/);
  });

  it('writes a readable 3000-operation mcp-tools.json', () => {
    const json = JSON.parse(readFileSync(join(outDirs.get('3000-operations')!, 'mcp-tools.json'), 'utf8')) as {
      tools: unknown[];
    };
    expect(json.tools).toHaveLength(LARGE_RESOURCES * 4);
  });
});

describe('what the shapes of the real corpus exercise', () => {
  it('names every operation of a document without operationIds from its method and path', () => {
    const tools = run('no-operation-ids').tools;
    expect(tools.length).toBe(7 * 5 + 6);
    for (const tool of tools) expect(tool.name).toMatch(/^(get|put|post|delete|patch|head|options|trace)_[a-z0-9_-]+$/);
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'get_api_v3_movie-file',
        'get_api_v3_movie_file',
        'get_api_v3_movie_by_movieid_file',
        'head_api_v3_filesystem',
      ]),
    );
  });

  it('keeps StartTime< and StartTime> apart, recording the real keys', () => {
    const args = toolNamed('versioned-json-paths', 'ListCall').binding.args.filter((a) =>
      a.key.startsWith('StartTime'),
    );
    expect(args.map((a) => [a.name, a.key])).toEqual([
      ['StartTime', 'StartTime'],
      ['StartTime_lt', 'StartTime<'],
      ['StartTime_gt', 'StartTime>'],
    ]);
  });

  it('merges form-encoded bodies into the arguments', () => {
    const tool = toolNamed('versioned-json-paths', 'CreateCall');
    expect(tool.binding).toMatchObject({
      contentType: 'application/x-www-form-urlencoded',
      body: 'merged',
      path: '/2010-04-01/Accounts/{AccountSid}/Calls.json',
    });
    expect(tool.inputSchema.required).toEqual(['AccountSid', 'To', 'From']);
  });

  it('keeps the Authorization header out of every tool', () => {
    for (const name of names) {
      for (const tool of run(name).tools)
        expect(tool.binding.args.filter((a) => a.in === 'header' && a.key.toLowerCase() === 'authorization')).toEqual(
          [],
        );
    }
  });

  it('serves {id}.json beside {name}.json', () => {
    expect(run('inline-3.1').tools.map((t) => [t.name, t.binding.path])).toEqual([
      ['updateGroup', '/groups/{id}.json'],
      ['getGroup', '/groups/{name}.json'],
      ['createUpload', '/uploads.json'],
    ]);
  });

  it('reads YAML response codes written as numbers', () => {
    expect(toolNamed('petstore-yaml', 'showPetById').outputSchema).toMatchObject({
      type: 'object',
      properties: { id: expect.anything(), name: expect.anything() },
    });
  });
});
