// How a tool call's query arguments reach the REST request: arrays repeat the key unless the contract says
// `explode: false`, in which case they go as one comma-joined value.
import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../../src/mcp/tool-descriptor.ts';
import { buildRequest, planRequest } from '../../src/mcp/tool-request.ts';

const tool: ToolDescriptor = {
  name: 'list_things',
  title: 'List things',
  description: 'Lists things.',
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: true },
  binding: {
    operationId: 'list_things',
    method: 'GET',
    path: '/things',
    body: 'none',
    args: [
      { name: 'status', in: 'query', key: 'status', explode: false },
      { name: 'label', in: 'query', key: 'label' },
      { name: 'limit', in: 'query', key: 'limit' },
    ],
  },
};

describe('buildRequest query arguments', () => {
  const plan = planRequest(tool);
  const cases: Array<[string, { given: Record<string, unknown>; want: string }]> = [
    [
      'joins an explode-false array with literal commas',
      { given: { status: ['queued', 'running'], limit: 5 }, want: '/things?status=queued,running&limit=5' },
    ],
    ['encodes each item, not the commas', { given: { status: ['a b', 'c,d'] }, want: '/things?status=a%20b,c%2Cd' }],
    ['leaves an empty array out', { given: { status: [], limit: 5 }, want: '/things?limit=5' }],
    ['sends a lone string as it is', { given: { status: 'queued' }, want: '/things?status=queued' }],
    ['repeats the key of an exploded array', { given: { label: ['a', 'b'] }, want: '/things?label=a&label=b' }],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    const url = new URL(buildRequest(plan, given, 'http://api.test', undefined).url);
    expect(url.pathname + url.search).toBe(want);
  });
});
