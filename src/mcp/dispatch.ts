// Runs MCP tool calls through the REST pipeline: validate the arguments, build the HTTP request from
// the tool's binding, send it with the caller's credential through `fetch`, and shape the response as
// a tool result.

import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { ProtocolError, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/server';
import type { ToolDescriptor } from './tool-descriptor.ts';
import { buildRequest, planRequest, type RequestPlan } from './tool-request.ts';
import { pagingHint, toToolResult, type ResultShape } from './tool-result.ts';

export interface ToolDispatcherOptions {
  tools: ToolDescriptor[];
  /** Sends one REST request: the in-process app (`app.fetch`) on the server, global fetch in stdio. */
  fetch: (request: Request) => Promise<Response>;
  /** Prefix for the binding paths; the in-process app only needs a syntactically valid origin. */
  baseUrl?: string;
  /** Largest tool result text, in UTF-8 bytes, before it is cut (default 100 000). */
  resultCapBytes?: number;
  /**
   * The body text the app already holds for a response it produced in-process, or undefined to read the
   * body. Reading an in-process response back (undici Response, web stream) costs more CPU than the
   * rest of a tool call; an app that records the JSON it serialized can hand it over instead.
   */
  responseText?: (response: Response) => string | undefined;
}

export interface ToolDispatcher {
  /** Throws a JSON-RPC InvalidParams ProtocolError for an unknown tool; every other outcome is a result. */
  call(
    name: string,
    args: Record<string, unknown> | undefined,
    authorization: string | undefined,
  ): Promise<CallToolResult>;
  has(name: string): boolean;
}

interface CompiledTool {
  validate: ValidateFunction;
  plan: RequestPlan;
  shape: ResultShape;
}

// ajv-formats is a CommonJS module whose default export lands on `.default` under NodeNext typing.
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ??
  addFormatsPlugin) as (ajv: Ajv2020) => void;

function describeError(e: ErrorObject): string {
  const path = e.instancePath
    .replace(/^\//, '')
    .replace(/\/(\d+)(?=\/|$)/g, '[$1]')
    .replaceAll('/', '.');
  const under = path ? `${path}.` : '';
  if (e.keyword === 'required') {
    return `\`${under}${(e.params as { missingProperty: string }).missingProperty}\` is required`;
  }
  if (e.keyword === 'additionalProperties') {
    return `\`${under}${(e.params as { additionalProperty: string }).additionalProperty}\` is not a known argument`;
  }
  // The generator closes objects with `additionalProperties: { not: {} }`, which fails on the extra property.
  if (e.keyword === 'not' && e.schemaPath.endsWith('/additionalProperties/not')) {
    return `\`${path}\` is not a known argument`;
  }
  return `\`${path || '(arguments)'}\` ${e.message ?? 'is invalid'}`;
}

function invalidArguments(name: string, errors: ErrorObject[]): CallToolResult {
  const reasons = [...new Set(errors.map(describeError))].join('; ');
  const text = `Invalid arguments for ${name}: ${reasons}. Fix them and call ${name} again.`;
  return { content: [{ type: 'text', text }], isError: true };
}

function failed(name: string, error: unknown): CallToolResult {
  const reason = error instanceof Error ? error.message : String(error);
  const text = `${name} failed: the API could not be reached or its response could not be read (${reason}).`;
  return { content: [{ type: 'text', text }], isError: true };
}

function compile(tools: ToolDescriptor[], capBytes: number): Map<string, CompiledTool> {
  // strict: false because OpenAPI-derived schemas carry annotation keywords (example, x-*) ajv does not know.
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
  addFormats(ajv);
  const compiled = new Map<string, CompiledTool>();
  for (const tool of tools) {
    if (compiled.has(tool.name)) throw new Error(`duplicate tool name ${tool.name}`);
    compiled.set(tool.name, {
      validate: ajv.compile(tool.inputSchema),
      plan: planRequest(tool),
      shape: {
        name: tool.name,
        structured: tool.outputSchema !== undefined,
        pagingHint: pagingHint(tool.name, tool.inputSchema),
        capBytes,
      },
    });
  }
  return compiled;
}

export function createToolDispatcher(options: ToolDispatcherOptions): ToolDispatcher {
  const capBytes = options.resultCapBytes ?? 100_000;
  if (!(capBytes >= 1_000)) throw new Error('resultCapBytes must be at least 1000');
  const baseUrl = (options.baseUrl ?? 'http://localhost').replace(/\/$/, '');
  const compiled = compile(options.tools, capBytes);
  const send = options.fetch;
  const known = options.responseText ?? (() => undefined);

  async function call(
    name: string,
    args: Record<string, unknown> | undefined,
    authorization: string | undefined,
  ): Promise<CallToolResult> {
    const tool = compiled.get(name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const input = args ?? {};
    if (!tool.validate(input)) return invalidArguments(name, tool.validate.errors ?? []);
    try {
      const response = await send(buildRequest(tool.plan, input, baseUrl, authorization));
      return toToolResult(tool.shape, response, known(response) ?? (await response.text()));
    } catch (error) {
      // An unreachable API (stdio launcher) or a response cut off is the tool's failure, not the protocol's.
      return failed(name, error);
    }
  }

  return { call, has: (name) => compiled.has(name) };
}
