// The generated tool descriptors are servable as they are: every schema compiles, every binding plans,
// and the tools/list an agent loads stays within its token budget.

import { describe, expect, it } from 'vitest';
import { toolDescriptors } from '../../src/generated/mcp-tools.ts';
import { createToolDispatcher } from '../../src/mcp/dispatch.ts';
import { createMcpHttpHandler } from '../../src/mcp/http.ts';
import { toWireTools } from '../../src/mcp/server-factory.ts';

// Approximate tokens as characters / 4, the usual rule of thumb for English and JSON. The average was
// 350 while most tools were small account calls; a tool that returns a resource carries that resource's
// output schema (400–550 tokens for an operation or a webhook endpoint), so from the platform round on the
// budget is 420 on average and 600 for any one tool: big enough for real outputs, small enough to keep
// descriptions terse as the domain grows.
const TOKENS_PER_TOOL_BUDGET = 420;
const TOKENS_PER_TOOL_CEILING = 600;

describe('generated tool descriptors', () => {
  it('are accepted by the dispatcher and the HTTP handler (schemas compile, bindings plan)', () => {
    const dispatcher = createToolDispatcher({ tools: toolDescriptors, fetch: async () => new Response() });
    expect(() =>
      createMcpHttpHandler({ tools: toolDescriptors, dispatcher, serverInfo: { name: 'service', version: '0' } }),
    ).not.toThrow();
    for (const tool of toolDescriptors) expect(dispatcher.has(tool.name)).toBe(true);
  });

  it('have unique names in the portable tool-name format', () => {
    const names = toolDescriptors.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
  });

  it(`keep tools/list within ${TOKENS_PER_TOOL_BUDGET} tokens per tool on average`, () => {
    const listed = JSON.stringify({ tools: toWireTools(toolDescriptors) });
    const perTool = listed.length / 4 / toolDescriptors.length;
    expect(perTool).toBeLessThanOrEqual(TOKENS_PER_TOOL_BUDGET);
  });

  it(`keep every tool within ${TOKENS_PER_TOOL_CEILING} tokens`, () => {
    const heavy = toWireTools(toolDescriptors)
      .map((tool) => [tool.name, JSON.stringify(tool).length / 4] as const)
      .filter(([, tokens]) => tokens > TOKENS_PER_TOOL_CEILING);
    expect(heavy).toEqual([]);
  });
});
