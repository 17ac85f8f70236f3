import { afterAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../scripts/codegen/load.ts';
import { applyManifest, parseManifest } from '../../scripts/codegen/manifest.ts';
import { buildModel } from '../../scripts/codegen/model.ts';
import { buildDescriptor } from '../../scripts/codegen/tools.ts';
import { generateDoc, removeDir, tempDir } from '../helpers/codegen.ts';

const ok = { responses: { '200': { description: 'ok' } } };
const doc: JsonObject = {
  openapi: '3.1.0',
  info: { title: 'leads', version: '1' },
  paths: {
    '/leads': { get: { operationId: 'listLeads', ...ok }, post: { operationId: 'createLead', ...ok } },
    '/leads/{id}': { delete: { operationId: 'deleteLead', ...ok } },
    '/ping': { get: ok },
    '/odd': { get: { operationId: 'constructor', ...ok } },
  },
};
const operations = buildModel({ doc, text: '', version: '3.1' }).operations;

function apply(manifest: unknown) {
  const warnings: string[] = [];
  const tools = applyManifest(operations, parseManifest(manifest), (m) => warnings.push(m));
  return { tools, warnings };
}

describe('parseManifest', () => {
  const failures: Array<[string, { given: unknown; want: RegExp }]> = [
    ['rejects a manifest that is not a mapping', { given: ['listLeads'], want: /the manifest must be a mapping/ }],
    ['rejects an unknown top-level key', { given: { tool: {} }, want: /unknown top-level key "tool"/ }],
    ['rejects tools that are not a mapping', { given: { tools: ['listLeads'] }, want: /tools must be a mapping/ }],
    [
      'rejects an entry that is not a mapping',
      { given: { tools: { listLeads: 'x' } }, want: /tools\.listLeads must be a mapping/ },
    ],
    [
      'rejects an unknown field, naming the entry',
      { given: { tools: { listLeads: { nmae: 'x' } } }, want: /tools\.listLeads has unknown field "nmae"/ },
    ],
    [
      'rejects an unknown annotation',
      {
        given: { tools: { listLeads: { annotations: { readonly: true } } } },
        want: /tools\.listLeads\.annotations has unknown field "readonly"/,
      },
    ],
    [
      'rejects a hint that is not a boolean',
      {
        given: { tools: { listLeads: { annotations: { readOnlyHint: 'yes' } } } },
        want: /tools\.listLeads\.annotations\.readOnlyHint must be true or false/,
      },
    ],
    [
      'rejects an exclusion without a reason',
      { given: { tools: { deleteLead: { exclude: true } } }, want: /tools\.deleteLead is excluded without a reason/ },
    ],
    [
      'rejects an exclusion with a blank reason',
      {
        given: { tools: { deleteLead: { exclude: true, reason: '  ' } } },
        want: /tools\.deleteLead is excluded without a reason/,
      },
    ],
    [
      'rejects an exclude that is not a boolean',
      {
        given: { tools: { deleteLead: { exclude: 'yes', reason: 'r' } } },
        want: /tools\.deleteLead\.exclude must be true or false/,
      },
    ],
    [
      'rejects a name that is not a string',
      { given: { tools: { listLeads: { name: 42 } } }, want: /tools\.listLeads\.name must be a string/ },
    ],
    [
      'rejects an unknown toolset',
      {
        given: { toolsets: { crm: 'CRM' }, tools: { listLeads: { toolset: 'sales' } } },
        want: /tools\.listLeads names unknown toolset "sales"/,
      },
    ],
    [
      'rejects a toolset without a description string',
      { given: { toolsets: { crm: 1 } }, want: /toolsets\.crm must be a description string/ },
    ],
  ];
  it.each(failures)('%s', (_, { given, want }) => {
    expect(() => parseManifest(given)).toThrow(want);
  });

  it('reads an empty file as an empty manifest', () => {
    expect(parseManifest(null).tools.size).toBe(0);
  });
});

describe('applyManifest', () => {
  const failures: Array<[string, { given: unknown; want: RegExp }]> = [
    [
      'fails on an entry for an unknown operationId',
      { given: { tools: { listLeeds: {} } }, want: /tools\.listLeeds names an unknown operationId "listLeeds"/ },
    ],
    [
      "fails when a rename takes another tool's name",
      {
        given: { tools: { createLead: { name: 'listLeads' } } },
        want: /tools\.createLead: tool name "listLeads" is already used by listLeads/,
      },
    ],
    [
      'fails when two renames pick one name',
      {
        given: { tools: { listLeads: { name: 'leads' }, createLead: { name: 'leads' } } },
        want: /tools\.createLead: tool name "leads" is already used by listLeads/,
      },
    ],
    [
      'fails on a name with a space',
      {
        given: { tools: { listLeads: { name: 'list leads' } } },
        want: /tools\.listLeads: tool name "list leads" does not match/,
      },
    ],
    [
      'fails on a name with a dot',
      { given: { tools: { listLeads: { name: 'leads.list' } } }, want: /does not match \^\[a-zA-Z0-9_-\]\{1,64\}\$/ },
    ],
    [
      'fails on a name over 64 characters',
      {
        given: { tools: { listLeads: { name: 'x'.repeat(65) } } },
        want: /tools\.listLeads: tool name "x{65}" does not match/,
      },
    ],
    ['fails on an empty name', { given: { tools: { listLeads: { name: '' } } }, want: /tool name "" does not match/ }],
  ];
  it.each(failures)('%s', (_, { given, want }) => {
    expect(() => apply(given)).toThrow(want);
  });

  const warnings: Array<[string, { given: string; want: number }]> = [
    ['warns about a name over 48 characters', { given: 'x'.repeat(49), want: 1 }],
    ['does not warn at 48 characters', { given: 'x'.repeat(48), want: 0 }],
  ];
  it.each(warnings)('%s', (_, { given, want }) => {
    const result = apply({ tools: { listLeads: { name: given } } });
    expect(result.warnings).toHaveLength(want);
    if (want) expect(result.warnings[0]).toContain(`"${given}" (listLeads) is longer than 48 characters`);
  });

  it('leaves an excluded operation out', () => {
    const { tools } = apply({ tools: { deleteLead: { exclude: true, reason: 'Irreversible.' } } });
    expect(tools.map((t) => t.name)).toEqual(['listLeads', 'createLead', 'get_ping', 'constructor']);
  });

  it('keys an operation without an operationId by method and path', () => {
    const { tools } = apply({ tools: { 'GET /ping': { name: 'ping' } } });
    expect(tools.map((t) => t.name)).toContain('ping');
  });

  it('applies title, description, toolset and annotations to the descriptor', () => {
    const manifest = {
      toolsets: { crm: 'Leads' },
      tools: {
        deleteLead: {
          title: 'Delete a lead',
          description: 'Gone for good.',
          toolset: 'crm',
          annotations: { destructiveHint: false, openWorldHint: false },
        },
      },
    };
    const tool = apply(manifest).tools.find((t) => t.op.operationId === 'deleteLead')!;
    const { descriptor } = buildDescriptor(doc, tool);
    expect(descriptor).toMatchObject({ title: 'Delete a lead', description: 'Gone for good.', toolset: 'crm' });
    expect(descriptor.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it('does not read inherited object members as manifest entries', () => {
    const { tools } = apply({});
    expect(tools.find((t) => t.op.operationId === 'constructor')?.name).toBe('constructor');
  });
});

describe('codegen with a manifest file', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach(removeDir));

  it('fails naming the entry for an unknown operationId', async () => {
    const dir = tempDir('manifest');
    dirs.push(dir);
    await expect(generateDoc(dir, doc, { tools: { nope: { title: 'x' } } })).rejects.toThrow(
      /mcp-tools\.yaml: tools\.nope names an unknown operationId "nope"/,
    );
  });

  it('passes name warnings to the caller', async () => {
    const dir = tempDir('manifest');
    dirs.push(dir);
    const run = await generateDoc(dir, doc, { tools: { listLeads: { name: 'l'.repeat(50) } } });
    expect(run.warnings).toEqual([expect.stringContaining('is longer than 48 characters')]);
    expect(run.tools.map((t) => t.name)).toContain('l'.repeat(50));
  });
});
