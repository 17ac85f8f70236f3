import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleExternalRefs } from '../../scripts/codegen/bundle.ts';
import type { Json, JsonObject } from '../../scripts/codegen/load.ts';
import { removeDir, tempDir, writeDocuments } from '../helpers/codegen.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** Writes the files, bundles `entry.yaml`, returns the bundled document. */
function bundle(files: Record<string, Json>): JsonObject {
  const dir = tempDir('bundle');
  dirs.push(dir);
  writeDocuments(dir, files);
  return bundleExternalRefs(files['entry.yaml'] as JsonObject, join(dir, 'entry.yaml'));
}

const entry = (schema: Json, schemas: JsonObject = {}) => ({
  openapi: '3.1.0',
  paths: {},
  components: { schemas: { Root: schema, ...schemas } },
});
const root = (doc: JsonObject) => ((doc.components as JsonObject).schemas as JsonObject).Root;

describe('bundleExternalRefs', () => {
  const cases: Array<[string, { given: Record<string, Json>; want: Json }]> = [
    [
      'inlines a pointer into another file',
      {
        given: { 'entry.yaml': entry({ $ref: 'lib.yaml#/Name' }), 'lib.yaml': { Name: { type: 'string' } } },
        want: { type: 'string' },
      },
    ],
    [
      'inlines a whole file',
      {
        given: { 'entry.yaml': entry({ $ref: './name.yaml' }), 'name.yaml': { type: 'string' } },
        want: { type: 'string' },
      },
    ],
    [
      "follows a file's own local references within that file",
      {
        given: {
          'entry.yaml': entry({ $ref: 'lib.yaml#/A' }),
          'lib.yaml': { A: { type: 'array', items: { $ref: '#/B' } }, B: { type: 'integer' } },
        },
        want: { type: 'array', items: { type: 'integer' } },
      },
    ],
    [
      'resolves paths relative to the referring file',
      {
        given: {
          'entry.yaml': entry({ $ref: 'sub/a.yaml' }),
          'sub/a.yaml': { $ref: '../b/b.yaml' },
          'b/b.yaml': { type: 'boolean' },
        },
        want: { type: 'boolean' },
      },
    ],
    [
      'turns a reference back into the entry file into a local one',
      {
        given: {
          'entry.yaml': entry({ $ref: 'lib.yaml#/A' }, { Common: { type: 'string' } }),
          'lib.yaml': { A: { type: 'array', items: { $ref: 'entry.yaml#/components/schemas/Common' } } },
        },
        want: { type: 'array', items: { $ref: '#/components/schemas/Common' } },
      },
    ],
    [
      'keeps keywords beside an external reference',
      {
        given: {
          'entry.yaml': entry({ $ref: 'lib.yaml#/Name', description: 'Who.' }),
          'lib.yaml': { Name: { type: 'string' } },
        },
        want: { type: 'string', description: 'Who.' },
      },
    ],
    [
      'leaves a reference to a file that is not there as written',
      { given: { 'entry.yaml': entry({ $ref: 'missing.yaml#/X' }) }, want: { $ref: 'missing.yaml#/X' } },
    ],
    [
      'leaves a reference to a file that is not a document as written',
      { given: { 'entry.yaml': entry({ $ref: 'notes.md' }), 'notes.md': 'just text: [' }, want: { $ref: 'notes.md' } },
    ],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(root(bundle(given))).toEqual(want);
  });

  it('moves a schema on a cycle across files into components under a fresh name', () => {
    const doc = bundle({
      'entry.yaml': entry({ $ref: 'tree.yaml#/Tree' }, { Tree: { type: 'string' } }),
      'tree.yaml': { Tree: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/Tree' } } } } },
    });
    const schemas = (doc.components as JsonObject).schemas as JsonObject;
    expect(schemas.Root).toEqual({ $ref: '#/components/schemas/Tree_2' });
    expect(schemas.Tree).toEqual({ type: 'string' });
    expect(schemas.Tree_2).toEqual({
      type: 'object',
      properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Tree_2' } } },
    });
  });

  it('handles a cycle through two files', () => {
    const doc = bundle({
      'entry.yaml': entry({ $ref: 'pet.yaml#/Pet' }),
      'pet.yaml': { Pet: { type: 'object', properties: { owner: { $ref: 'owner.yaml' } } } },
      'owner.yaml': { type: 'object', properties: { pets: { type: 'array', items: { $ref: 'pet.yaml#/Pet' } } } },
    });
    const schemas = (doc.components as JsonObject).schemas as JsonObject;
    expect(schemas.Root).toEqual({ $ref: '#/components/schemas/Pet' });
    expect(schemas.Pet).toEqual({
      type: 'object',
      properties: {
        owner: { type: 'object', properties: { pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } },
      },
    });
  });

  it('returns a document without external references unchanged', () => {
    const doc = entry({ $ref: '#/components/schemas/Other' }, { Other: { type: 'string' } });
    expect(bundle({ 'entry.yaml': doc })).toEqual(doc);
  });
});
