// The generated tool descriptors are servable as they are: every schema compiles, every binding plans,
// and the tools/list an agent loads stays within its token budget.

import { describe, expect, it } from 'vitest';
import { toolDescriptors } from '../../src/generated/mcp-tools.ts';
import { createToolDispatcher } from '../../src/mcp/dispatch.ts';
import { createMcpHttpHandler } from '../../src/mcp/http.ts';
import { toWireTools } from '../../src/mcp/server-factory.ts';

// Approximate tokens as characters / 4, the usual rule of thumb for English and JSON. Clients load the whole
// tools/list into the model's context, so the budget is a total that grows with the tool set: 300 tokens per
// tool on average and 850 for any one tool (the heaviest are the email sequence writers at about 800, since their
// inputs carry A/B variants, several mailboxes, tracking and winner selection: values a model must compose, and
// the analytics readers at about 650-700, whose answers carry thirteen figures per group). Descriptions say when to use a tool, what it needs
// first and what to call next in a sentence or two (mcp-tools.yaml); schemas keep what a model or a validator
// reads and leave the rest to the API reference (scripts/codegen/compact-schema.ts).
const TOKENS_PER_TOOL_BUDGET = 300;
const TOKENS_PER_TOOL_CEILING = 850;

const tokens = (value: unknown) => JSON.stringify(value).length / 4;

/** Tools, tokens and tokens per tool of each toolset's share of tools/list, heaviest per tool first. */
function toolsetFigures(): { toolset: string; tools: number; tokens: number; perTool: number }[] {
  const byToolset = new Map<string, number[]>();
  const wire = toWireTools(toolDescriptors);
  toolDescriptors.forEach((descriptor, i) => {
    const toolset = descriptor.toolset ?? '(none)';
    byToolset.set(toolset, [...(byToolset.get(toolset) ?? []), tokens(wire[i])]);
  });
  return [...byToolset]
    .map(([toolset, each]) => {
      const total = each.reduce((sum, n) => sum + n, 0);
      return { toolset, tools: each.length, tokens: Math.round(total), perTool: Math.round(total / each.length) };
    })
    .sort((a, b) => b.perTool - a.perTool);
}

describe('generated tool descriptors', () => {
  it('are accepted by the dispatcher and the HTTP handler (schemas compile, bindings plan)', () => {
    const dispatcher = createToolDispatcher({ tools: toolDescriptors, fetch: async () => new Response() });
    expect(() =>
      createMcpHttpHandler({ tools: toolDescriptors, dispatcher, serverInfo: { name: 'service', version: '0' } }),
    ).not.toThrow();
    for (const tool of toolDescriptors) expect(dispatcher.has(tool.name)).toBe(true);
  });

  it('show the allowed values of a typed status filter, and send it comma-joined', () => {
    const tool = toolDescriptors.find((t) => t.name === 'list_operations')!;
    expect(tool.inputSchema.properties).toMatchObject({
      status: {
        type: 'array',
        items: { type: 'string', enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] },
      },
    });
    expect(tool.binding.args).toContainEqual({ name: 'status', in: 'query', key: 'status', explode: false });
  });

  it('have unique names in the portable tool-name format', () => {
    const names = toolDescriptors.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
  });

  it(`keep tools/list within ${TOKENS_PER_TOOL_BUDGET} tokens per tool on average`, () => {
    const total = Math.round(tokens({ tools: toWireTools(toolDescriptors) }));
    const perTool = total / toolDescriptors.length;
    // The figures per toolset, for a reader choosing toolsets for a connection and for the next budget review.
    console.log(`tools/list: ${toolDescriptors.length} tools, ${total} tokens, ${perTool.toFixed(1)} per tool`);
    console.table(toolsetFigures());
    expect(
      perTool,
      `tools/list is ${total} tokens for ${toolDescriptors.length} tools, ${perTool.toFixed(1)} per tool`,
    ).toBeLessThanOrEqual(TOKENS_PER_TOOL_BUDGET);
  });

  it(`keep every tool within ${TOKENS_PER_TOOL_CEILING} tokens`, () => {
    const heavy = toWireTools(toolDescriptors)
      .map((tool) => [tool.name, Math.round(tokens(tool))] as const)
      .filter(([, tokens]) => tokens > TOKENS_PER_TOOL_CEILING);
    expect(heavy).toEqual([]);
  });

  it('report every tool under one toolset of the manifest', () => {
    const figures = toolsetFigures();
    expect(figures.map((f) => f.toolset)).not.toContain('(none)');
    expect(figures.reduce((sum, f) => sum + f.tools, 0)).toBe(toolDescriptors.length);
  });
});
