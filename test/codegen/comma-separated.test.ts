// Query arrays written `style: form, explode: false` (`?status=queued,running`) and query defaults, through every
// output: the model marks the parameter, the route splits and checks it, the handler input is typed with the enum
// and the default filled in, the tool lists the enum and sends the array comma-joined, and so does the SDK.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../scripts/codegen/load.ts';
import { buildModel } from '../../scripts/codegen/model.ts';
import { querySerializer, type OperationBinding } from '../../scripts/codegen/templates/sdk-runtime.ts';
import { generateDoc, removeDir, tempDir, typecheck, writeFiles, type GeneratedRun } from '../helpers/codegen.ts';
import { ok, ref } from './synthetic-builders.ts';

const status = {
  name: 'status',
  in: 'query',
  style: 'form',
  explode: false,
  schema: { type: 'array', items: ref('Status') },
};
const tags = {
  name: 'tag',
  in: 'query',
  style: 'form',
  explode: false,
  schema: { type: 'array', maxItems: 3, items: { type: 'string', maxLength: 5 } },
};
const ids = { name: 'id', in: 'query', explode: false, schema: { type: 'array', items: { type: 'integer' } } };
const repeated = { name: 'label', in: 'query', schema: { type: 'array', items: { type: 'string' } } };
const limit = { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } };

function listDoc(parameters: JsonObject[]): JsonObject {
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: { '/things': { get: { operationId: 'list_things', parameters, responses: ok({ type: 'object' }) } } },
    components: { schemas: { Status: { type: 'string', enum: ['queued', 'running', 'failed'] } } },
  };
}

describe('operation model', () => {
  const cases: Array<[string, { given: JsonObject; want: boolean }]> = [
    ['marks a form array that does not explode', { given: status, want: true }],
    ['marks one without a style (form is the query default)', { given: ids, want: true }],
    ['leaves an exploded array alone (the default)', { given: repeated, want: false }],
    [
      'leaves a scalar with explode false alone',
      { given: { name: 'q', in: 'query', explode: false, schema: { type: 'string' } }, want: false },
    ],
    ['leaves other styles alone', { given: { ...status, style: 'pipeDelimited' }, want: false }],
    ['leaves a header array alone', { given: { ...status, in: 'header' }, want: false }],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    const [op] = buildModel({ doc: listDoc([given]), text: '', version: '3.1' }).operations;
    expect(op.parameters[0].commaSeparated === true).toBe(want);
  });
});

describe('emitted code for a comma-separated query array', () => {
  let dir: string;
  let run: GeneratedRun;
  let query: z.ZodType;
  beforeAll(async () => {
    dir = tempDir('comma');
    run = await generateDoc(dir, listDoc([status, tags, ids, repeated, limit]));
    writeFiles(join(dir, 'out'), run.files);
    const routes = (await import(pathToFileURL(join(dir, 'out', 'routes.ts')).href)) as {
      routes: { list_things: { request: { query: z.ZodType } } };
    };
    query = routes.routes.list_things.request.query;
  });
  afterAll(() => removeDir(dir));
  const file = (name: string) => run.files.find((f) => f.name === name)!.content;

  const parses: Array<[string, { given: Record<string, unknown>; want: Record<string, unknown> }]> = [
    ['splits at commas', { given: { status: 'queued,running' }, want: { status: ['queued', 'running'] } }],
    [
      'drops repeats, blanks and spaces',
      { given: { status: ' queued,,queued , running' }, want: { status: ['queued', 'running'] } },
    ],
    ['reads an empty value as no filter', { given: { status: '' }, want: {} }],
    ['reads an absent one as no filter', { given: {}, want: {} }],
    [
      'reads a key sent twice as one list',
      { given: { status: ['queued', 'failed,queued'] }, want: { status: ['queued', 'failed'] } },
    ],
    [
      'checks and coerces the items of a typed array',
      { given: { id: '3,4', tag: 'a,b' }, want: { id: [3, 4], tag: ['a', 'b'] } },
    ],
    ['keeps exploded arrays as they were', { given: { label: 'a,b' }, want: { label: ['a,b'] } }],
  ];
  it.each(parses)('%s', (_, { given, want }) => {
    expect(query.parse(given)).toEqual({ limit: 20, ...want });
  });

  it('refuses a value outside the enum with one issue on the parameter naming every value allowed', () => {
    const result = query.safeParse({ status: 'queued,done' });
    expect(result.success).toBe(false);
    expect(result.error!.issues).toEqual([
      expect.objectContaining({
        path: ['status'],
        message: 'has "done", which is not one of queued, running, failed',
        params: { code: 'invalid_value' },
      }),
    ]);
  });

  it('applies the array bounds after repeats are dropped', () => {
    expect(query.safeParse({ tag: 'a,b,c,a' }).success).toBe(true);
    expect(query.safeParse({ tag: 'a,b,c,d' }).success).toBe(false);
    expect(query.safeParse({ tag: 'toolong' }).success).toBe(false);
    expect(query.safeParse({ id: '1,x' }).success).toBe(false);
  });

  it('lists the enum in the tool input schema and binds the argument as comma-joined', () => {
    const [tool] = run.tools;
    expect(tool.inputSchema.properties).toMatchObject({
      status: { type: 'array', items: { type: 'string', enum: ['queued', 'running', 'failed'] } },
    });
    expect(tool.binding.args).toEqual(
      expect.arrayContaining([
        { name: 'status', in: 'query', key: 'status', explode: false },
        { name: 'label', in: 'query', key: 'label' },
      ]),
    );
    expect(file('sdk.ts')).toMatch(/"key":"status","explode":false/);
  });

  it('types the handler input with the enum and the default filled in, and type-checks', async () => {
    const out = join(dir, 'out');
    writeFileSync(
      join(out, 'type-checks.ts'),
      [
        `import type { ListThingsInput } from './handlers.ts';`,
        `import type { ListThingsArgs } from './sdk.ts';`,
        'declare const input: ListThingsInput;',
        'export const limit: number = input.query.limit;',
        `export const statuses: Array<'queued' | 'running' | 'failed'> | undefined = input.query.status;`,
        `export const args: ListThingsArgs = { status: ['queued', 'failed'] };`,
        '// @ts-expect-error a status outside the enum',
        `export const wrong: ListThingsArgs = { status: ['done'] };`,
        '',
      ].join('\n'),
    );
    expect(await typecheck([out], 'comma')).toBe('');
  }, 120_000);
});

describe('SDK query serializer', () => {
  const binding: OperationBinding = {
    operationId: 'list_things',
    method: 'GET',
    path: '/things',
    body: 'none',
    args: [
      { name: 'status', in: 'query', key: 'status', explode: false },
      { name: 'label', in: 'query', key: 'label' },
      { name: 'limit', in: 'query', key: 'limit' },
    ],
  };
  const cases: Array<[string, { given: Record<string, unknown>; want: string }]> = [
    [
      'joins an explode-false array with literal commas',
      { given: { status: ['queued', 'running'], limit: 5 }, want: 'status=queued,running&limit=5' },
    ],
    ['encodes each item, not the commas', { given: { status: ['a b', 'c&d'] }, want: 'status=a%20b,c%26d' }],
    ['leaves an empty array out', { given: { status: [], limit: 5 }, want: 'limit=5' }],
    ['repeats the key of an exploded array', { given: { label: ['a', 'b'] }, want: 'label=a&label=b' }],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(querySerializer(binding)!(given)).toBe(want);
  });

  it('is not needed by a binding without such arrays', () => {
    expect(querySerializer({ ...binding, args: [binding.args[1]] })).toBeUndefined();
  });
});

describe('a required comma-separated array', () => {
  let dir: string;
  let query: z.ZodType;
  beforeAll(async () => {
    dir = tempDir('comma-required');
    const run = await generateDoc(dir, listDoc([{ ...status, required: true }]));
    writeFiles(join(dir, 'out'), run.files);
    const routes = (await import(pathToFileURL(join(dir, 'out', 'routes.ts')).href)) as {
      routes: { list_things: { request: { query: z.ZodType } } };
    };
    query = routes.routes.list_things.request.query;
  });
  afterAll(() => removeDir(dir));

  it('is refused when absent or empty, and read when given', () => {
    expect(query.safeParse({}).success).toBe(false);
    expect(query.safeParse({ status: ' , ' }).success).toBe(false);
    expect(query.parse({ status: 'failed' })).toEqual({ status: ['failed'] });
  });
});
