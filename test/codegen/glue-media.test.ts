// What the generator emits for media besides JSON: several request media types, text and HTML responses,
// redirects with their Location, browser-only operations kept out of the tools; the output (and handlers
// written against it) type-checks, and the route table is kept as a file snapshot.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../scripts/codegen/load.ts';
import { applyManifest, parseManifest } from '../../scripts/codegen/manifest.ts';
import { buildModel, isBrowserOnly, mediaKind, type OperationModel } from '../../scripts/codegen/model.ts';
import { generateDoc, removeDir, tempDir, typecheck, type GeneratedRun } from '../helpers/codegen.ts';
import { generateGlue, glueContract } from '../mcp/fixtures/glue-contract.ts';

function operation(spec: JsonObject): OperationModel {
  const doc = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: { '/x': { get: { operationId: 'op', ...spec } } },
  };
  return buildModel({ doc, text: '', version: '3.1' }).operations[0];
}
const page = { description: 'page', content: { 'text/html': { schema: { type: 'string' } } } };
const jsonOk = { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } };
const redirect = { description: 'away', headers: { Location: { schema: { type: 'string' } } } };
const problem = { description: 'problem', content: { 'application/problem+json': { schema: { type: 'object' } } } };

describe('mediaKind', () => {
  const cases: Array<[string, { given: string; want: string }]> = [
    ['reads application/json as JSON', { given: 'application/json', want: 'json' }],
    ['reads a +json type as JSON', { given: 'application/problem+json', want: 'json' }],
    ['reads a url-encoded form as a form', { given: 'application/x-www-form-urlencoded', want: 'form' }],
    ['reads multipart as a form', { given: 'multipart/form-data', want: 'form' }],
    ['reads CSV as text', { given: 'text/csv', want: 'text' }],
    ['reads HTML as text', { given: 'text/html', want: 'text' }],
    ['reads any other type as text', { given: 'application/octet-stream', want: 'text' }],
  ];
  it.each(cases)('%s', (_, { given, want }) => expect(mediaKind(given)).toBe(want));
});

describe('operation model', () => {
  it('keeps every request media type in document order and prefers JSON for the tool', () => {
    const op = operation({
      requestBody: {
        content: { 'text/csv': { schema: { type: 'string' } }, 'application/json': { schema: { type: 'object' } } },
      },
      responses: { '200': jsonOk },
    });
    expect(op.body?.media.map((m) => `${m.type}:${m.kind}`)).toEqual(['text/csv:text', 'application/json:json']);
    expect(op.body?.contentType).toBe('application/json');
  });

  it('requires a redirect Location of the handler even when the contract leaves it optional', () => {
    const op = operation({
      responses: { '302': redirect, '200': { ...page, headers: { 'X-Trace': { schema: { type: 'string' } } } } },
    });
    expect(op.responses.map((r) => [r.status, r.headers])).toEqual([
      ['200', [{ name: 'X-Trace', required: false }]],
      ['302', [{ name: 'Location', required: true }]],
    ]);
  });
});

describe('isBrowserOnly', () => {
  const cases: Array<[string, { given: JsonObject; want: boolean }]> = [
    ['counts an operation answering only with an HTML page', { given: { '200': page, '400': problem }, want: true }],
    [
      'counts an operation answering with a page or a redirect',
      { given: { '302': redirect, '200': page }, want: true },
    ],
    ['counts an operation answering only with a redirect', { given: { '303': redirect }, want: true }],
    ['leaves out an operation with a JSON answer', { given: { '200': jsonOk, '302': redirect }, want: false }],
    [
      'leaves out a CSV download',
      {
        given: { '200': { description: 'csv', content: { 'text/csv': { schema: { type: 'string' } } } } },
        want: false,
      },
    ],
    ['leaves out an operation with no content', { given: { '204': { description: 'done' } }, want: false }],
    ['leaves out an operation that declares only errors', { given: { default: problem }, want: false }],
  ];
  it.each(cases)('%s', (_, { given, want }) => expect(isBrowserOnly(operation({ responses: given }))).toBe(want));
});

describe('browser-only operations in the manifest', () => {
  const op = operation({ responses: { '200': page } });

  it('fails codegen naming the operation when the manifest does not exclude it', () => {
    expect(() => applyManifest([op], parseManifest({ tools: {} }), () => {})).toThrow(
      /mcp-tools\.yaml: tools\.op: GET \/x answers only with HTML pages or redirects.*exclude it \(exclude: true with a reason\)/,
    );
  });

  it('accepts it excluded with a reason', () => {
    expect(
      applyManifest([op], parseManifest({ tools: { op: { exclude: true, reason: 'a page' } } }), () => {}),
    ).toEqual([]);
  });

  it('leaves it out with a warning when there is no manifest (a third-party document)', async () => {
    const dir = tempDir('browser-only');
    try {
      const doc = {
        openapi: '3.1.0',
        info: { title: 't', version: '1' },
        paths: { '/x': { get: { operationId: 'op', responses: { '200': page } } } },
      };
      const run = await generateDoc(dir, doc);
      expect(run.tools).toEqual([]);
      expect(run.warnings).toContain(
        'warning: op: GET /x answers only with HTML pages or redirects, which a browser follows and a tool cannot; it is not a tool',
      );
    } finally {
      removeDir(dir);
    }
  });
});

describe('emitted glue for the media contract', () => {
  let dir: string;
  let run: GeneratedRun;
  let out: string;
  beforeAll(async () => {
    dir = tempDir('glue-emit');
    ({ run, out } = await generateGlue(dir));
  });
  afterAll(() => removeDir(dir));
  const file = (name: string) => run.files.find((f) => f.name === name)!.content;

  it('keeps the route table as its snapshot', async () => {
    await expect(file('routes.ts')).toMatchFileSnapshot('./__snapshots__/glue-routes.ts.snap');
  });

  it('types a two-media body as a union tagged by the media type sent', () => {
    expect(file('handlers.ts')).toMatch(
      /body: \(\{ contentType: "application\/json"; value: .*\} \| \{ contentType: "text\/csv"; value: .*\}\);/,
    );
  });

  it('reads text results as text and returns declared redirects in the SDK bindings', () => {
    const sdk = file('sdk.ts');
    expect(sdk).toMatch(/const export_rowsBinding: OperationBinding = .*"parseAs":"text"/);
    expect(sdk).toMatch(/const callbackBinding: OperationBinding = .*"parseAs":"text","redirect":"manual"/);
    expect(sdk).toMatch(/export type CallbackResult = .* \| Redirect;/);
  });

  it('gives the tool of a two-media operation the JSON arguments and media type', () => {
    const tool = run.tools.find((t) => t.name === 'import_rows')!;
    expect(tool.binding).toMatchObject({
      body: 'merged',
      contentType: 'application/json',
      args: [{ name: 'rows', in: 'body', key: 'rows' }],
    });
  });

  it('type-checks, with handlers written against it, and refuses wrong handler results', async () => {
    writeFileSync(
      join(out, 'type-checks.ts'),
      [
        `import type { CallbackOutput, ExportRowsOutput, ImportRowsOutput, ShowPageOutput } from './handlers.ts';`,
        'declare const stream: ReadableStream<Uint8Array>;',
        `export const streamed: ExportRowsOutput = { status: 200, body: stream };`,
        '// @ts-expect-error a redirect needs its Location',
        'export const noLocation: CallbackOutput = { status: 302 };',
        '// @ts-expect-error a JSON response is not a stream',
        'export const streamedJson: ImportRowsOutput = { status: 200, body: stream };',
        '// @ts-expect-error a page is text',
        'export const pageObject: ShowPageOutput = { status: 200, body: { html: 1 } };',
        '',
      ].join('\n'),
    );
    expect(await typecheck([out], 'glue-emit')).toBe('');
  }, 120_000);
});

it('keeps the glue contract free of JSON-only assumptions (every operation declares a non-JSON medium)', () => {
  const ops = buildModel({ doc: glueContract, text: '', version: '3.1' }).operations;
  expect(
    ops.every((op) => op.responses.some((r) => r.kind === 'text') || op.body?.media.some((m) => m.kind === 'text')),
  ).toBe(true);
});
