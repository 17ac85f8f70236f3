// What one MCP connection sees: the toolsets it asked for, read-only or not, and either the tools themselves
// or the three discovery tools (search_tools, describe_tool, call_tool). A client that asks for nothing sees
// every tool, as before. The selection changes only what is listed and what may be called: every call still
// goes through the one dispatcher, so authentication, validation, throttling, idempotency and errors are the
// same pipeline as a direct call.

import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { ToolDescriptor, Toolset } from './tool-descriptor.ts';
import type { ClientAbilities, ToolDispatcher } from './dispatch.ts';
import { toWireTools } from './server-factory.ts';
import { createToolSearch, ToolSearchError, type ToolSearch } from './tool-search.ts';

export interface ToolSelection {
  /** The toolsets asked for, in a canonical order, or every tool. */
  toolsets: 'all' | string[];
  /** Only tools annotated readOnlyHint are listed and may be called. */
  readonly: boolean;
  /** List the three discovery tools instead of the tools themselves. */
  discover: boolean;
}

export const FULL_SELECTION: ToolSelection = { toolsets: 'all', readonly: false, discover: false };

/** The raw settings as a transport received them; undefined or empty means not given. */
export interface SelectionInput {
  toolsets?: string | null;
  readonly?: string | null;
  tools?: string | null;
}

/** What each setting is called where it was given, for messages ("SERVICE_TOOLSETS", "toolsets"). */
export interface SettingNames {
  toolsets: string;
  readonly: string;
  tools: string;
}

export class SelectionError extends Error {
  constructor(
    message: string,
    readonly setting: keyof SelectionInput,
    readonly valid: string[],
  ) {
    super(message);
    this.name = 'SelectionError';
  }
}

const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no']);

/** Reads a connection's settings; a value it does not know throws a SelectionError listing the valid ones. */
export function parseSelection(input: SelectionInput, catalogue: Toolset[], names: SettingNames): ToolSelection {
  const known = catalogue.map((t) => t.name);
  let toolsets: ToolSelection['toolsets'] = 'all';
  const asked = (input.toolsets ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (asked.length && !asked.includes('all')) {
    const unknown = asked.filter((name) => !known.includes(name));
    if (unknown.length) {
      const valid = ['all', ...known];
      throw new SelectionError(
        `${names.toolsets} names unknown toolset${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')}; ` +
          `valid toolsets: ${valid.join(', ')}.`,
        'toolsets',
        valid,
      );
    }
    // Catalogue order, each once: one key per distinct selection.
    toolsets = known.filter((name) => asked.includes(name));
  }
  const flag = (input.readonly ?? '').trim().toLowerCase();
  if (flag && !TRUE.has(flag) && !FALSE.has(flag)) {
    throw new SelectionError(`${names.readonly} must be true or false, got "${flag}".`, 'readonly', ['true', 'false']);
  }
  const mode = (input.tools ?? '').trim().toLowerCase();
  if (mode && mode !== 'discover' && mode !== 'all') {
    throw new SelectionError(
      `${names.tools} must be "discover" (three tools to search, describe and call the others) or "all", got "${mode}".`,
      'tools',
      ['discover', 'all'],
    );
  }
  return { toolsets, readonly: TRUE.has(flag), discover: mode === 'discover' };
}

/** One string per distinct selection, to cache what is built for it. */
export function selectionKey(selection: ToolSelection): string {
  const sets = selection.toolsets === 'all' ? 'all' : selection.toolsets.join(',');
  return `${sets}|${selection.readonly ? 'ro' : 'rw'}|${selection.discover ? 'discover' : 'tools'}`;
}

export interface ToolCatalogue {
  tools: ToolDescriptor[];
  toolsets: Toolset[];
  /** Built once per process: the search index over every tool. */
  search: ToolSearch;
}

export function createToolCatalogue(tools: ToolDescriptor[], toolsets: Toolset[]): ToolCatalogue {
  return { tools, toolsets, search: createToolSearch(tools) };
}

export interface ConnectionView {
  key: string;
  selection: ToolSelection;
  /** What tools/list answers on this connection. */
  wireTools: Tool[];
  /** Calls gated by the selection; in discovery mode it also answers the three discovery tools. */
  dispatcher: ToolDispatcher;
}

const HOW_TO_RECONNECT = 'HTTP: ?toolsets=… or the X-MCP-Toolsets header; stdio: SERVICE_TOOLSETS';
const HOW_TO_WRITE = 'HTTP: without ?readonly / X-MCP-Readonly; stdio: without SERVICE_READONLY';

function refusal(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function jsonResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

export const DISCOVERY_TOOL_NAMES = ['search_tools', 'describe_tool', 'call_tool'] as const;

/** The three discovery tools; search_tools' toolset argument names the connection's own toolsets. */
function discoveryTools(toolsetNames: string[]): Tool[] {
  const toolset: Record<string, string | string[]> = { type: 'string', description: 'Only tools of this toolset.' };
  if (toolsetNames.length) toolset.enum = toolsetNames;
  return [
    {
      name: 'search_tools',
      title: 'Search the tools',
      description:
        'Find the tool for a task among this service’s tools: returns the best matches (name, what it does, toolset). Then describe_tool for its arguments, and call_tool to run it.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 300, description: 'The task in plain words.' },
          toolset,
          limit: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
        },
        required: ['query'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: 'describe_tool',
      title: 'Describe a tool',
      description: 'A tool’s full description, input schema and output schema, before calling it with call_tool.',
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string', minLength: 1, maxLength: 64 } },
        required: ['name'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: 'call_tool',
      title: 'Call a tool',
      description:
        'Run a tool found with search_tools, with its arguments as describe_tool gives them. The answer is that tool’s own result, errors included.',
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 64 },
          arguments: { type: 'object', description: 'The tool’s arguments.' },
        },
        required: ['name'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
  ];
}

function stringArg(args: Record<string, unknown> | undefined, name: string): string | undefined {
  const value = args?.[name];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/** Builds what a connection with this selection sees, over the dispatcher of its transport. */
export function createConnectionView(
  catalogue: ToolCatalogue,
  base: ToolDispatcher,
  selection: ToolSelection,
): ConnectionView {
  const byName = new Map(catalogue.tools.map((t) => [t.name, t]));
  const chosen =
    selection.toolsets === 'all'
      ? catalogue.toolsets
      : catalogue.toolsets.filter((t) => selection.toolsets.includes(t.name));
  const inChosen = selection.toolsets === 'all' ? undefined : new Set(chosen.flatMap((t) => t.tools));
  const inSelection = (tool: ToolDescriptor) => inChosen === undefined || inChosen.has(tool.name);
  const writes = (tool: ToolDescriptor) => tool.annotations.readOnlyHint !== true;
  const allowed = (tool: ToolDescriptor) => inSelection(tool) && !(selection.readonly && writes(tool));
  const listed = catalogue.tools.filter(allowed);
  const listedNames = new Set(listed.map((t) => t.name));
  const homes = (name: string) => catalogue.toolsets.filter((t) => t.tools.includes(name)).map((t) => t.name);
  const described =
    selection.toolsets === 'all' ? 'every toolset' : `the toolsets ${chosen.map((t) => t.name).join(', ')}`;

  /** Why a tool of the catalogue may not be called here, or undefined when it may. */
  function refusalFor(tool: ToolDescriptor): CallToolResult | undefined {
    if (!inSelection(tool)) {
      const sets = homes(tool.name);
      const where = sets.length
        ? `It is in the toolset${sets.length > 1 ? 's' : ''} ${sets.map((s) => `"${s}"`).join(', ')}`
        : 'It is in no toolset but "all"';
      return refusal(
        `${tool.name} is not available on this connection, which has ${described}. ${where}: reconnect with ` +
          `${sets[0] ?? 'all'} added (${HOW_TO_RECONNECT}), then call it again.`,
      );
    }
    if (selection.readonly && writes(tool)) {
      return refusal(
        `${tool.name} changes data and this connection is read-only, so it is refused whatever the credential. ` +
          `Reconnect without read-only (${HOW_TO_WRITE}) to use it.`,
      );
    }
    return undefined;
  }

  /** The base dispatcher's call, refused first for a tool outside the selection. */
  const callTool: ToolDispatcher['call'] = async (name, args, authorization, context, client) => {
    const tool = byName.get(name);
    return (tool && refusalFor(tool)) ?? base.call(name, args, authorization, context, client);
  };

  const toolsetNames = chosen.map((t) => t.name);

  function searchTools(args: Record<string, unknown> | undefined): CallToolResult {
    const query = stringArg(args, 'query');
    if (!query) return refusal('Invalid arguments for search_tools: `query` is required. Say the task in plain words.');
    const toolset = args?.toolset;
    if (toolset !== undefined && (typeof toolset !== 'string' || !toolsetNames.includes(toolset))) {
      return refusal(
        `Invalid arguments for search_tools: \`toolset\` must be one of this connection's toolsets: ${toolsetNames.join(', ')}.`,
      );
    }
    const limit = args?.limit ?? 5;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 20) {
      return refusal('Invalid arguments for search_tools: `limit` must be an integer from 1 to 20.');
    }
    const members = toolset === undefined ? undefined : new Set(chosen.find((t) => t.name === toolset)?.tools);
    let found;
    try {
      found = catalogue.search(query, {
        limit,
        allowed: (name) => listedNames.has(name) && (members === undefined || members.has(name)),
      });
    } catch (error) {
      if (error instanceof ToolSearchError) return refusal(`Invalid arguments for search_tools: ${error.message}`);
      throw error;
    }
    const tools = found.map((hit) => ({ name: hit.name, description: hit.description, toolset: hit.toolset ?? null }));
    return jsonResult({
      tools,
      ...(tools.length === 0 && { hint: 'No tool matched; try other words, or search without toolset.' }),
    });
  }

  function describeTool(args: Record<string, unknown> | undefined): CallToolResult {
    const name = stringArg(args, 'name');
    if (!name) return refusal('Invalid arguments for describe_tool: `name` is required (a name from search_tools).');
    const tool = byName.get(name);
    if (!tool) return refusal(`There is no tool named ${name}; find one with search_tools.`);
    const refused = refusalFor(tool);
    if (refused) return refused;
    return jsonResult({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      toolset: tool.toolset ?? null,
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema && { outputSchema: tool.outputSchema }),
      annotations: tool.annotations,
    });
  }

  async function callThrough(
    args: Record<string, unknown> | undefined,
    authorization: string | undefined,
    context?: unknown,
    client?: ClientAbilities,
  ): Promise<CallToolResult> {
    const name = stringArg(args, 'name');
    if (!name) return refusal('Invalid arguments for call_tool: `name` is required (a name from search_tools).');
    const inner = args?.arguments;
    if (inner !== undefined && (typeof inner !== 'object' || inner === null || Array.isArray(inner))) {
      return refusal('Invalid arguments for call_tool: `arguments` must be an object of the tool’s arguments.');
    }
    if (!byName.has(name)) return refusal(`There is no tool named ${name}; find one with search_tools.`);
    return callTool(name, inner as Record<string, unknown> | undefined, authorization, context, client);
  }

  const discoveryNames = new Set<string>(selection.discover ? DISCOVERY_TOOL_NAMES : []);
  const dispatcher: ToolDispatcher = {
    has: (name) => base.has(name) || discoveryNames.has(name),
    call(name, args, authorization, context, client) {
      if (discoveryNames.has(name)) {
        if (name === 'search_tools') return Promise.resolve(searchTools(args));
        if (name === 'describe_tool') return Promise.resolve(describeTool(args));
        return callThrough(args, authorization, context, client);
      }
      return callTool(name, args, authorization, context, client);
    },
  };

  const wireTools = selection.discover ? discoveryTools(toolsetNames) : toWireTools(listed);
  return { key: selectionKey(selection), selection, wireTools, dispatcher };
}
