// Runs MCP tool calls through the REST pipeline: validate the arguments, build the HTTP request from the
// tool's binding, send it with the caller's credential through `fetch`, and shape the response as a tool result.

import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { ProtocolError, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/server';
import type { ToolDescriptor } from './tool-descriptor.ts';
import { buildRequest, planRequest, type RequestPlan } from './tool-request.ts';
import { pagingHint, toToolResult, type ResultShape } from './tool-result.ts';

export interface ToolDispatcherOptions {
  tools: ToolDescriptor[];
  /** Sends one REST request: the in-process app (`app.fetch`) on the server, global `fetch` in the stdio launcher. */
  fetch: (request: Request) => Promise<Response>;
  /** Prefix for the binding paths; the in-process app only needs a syntactically valid origin. */
  baseUrl?: string;
  /** Largest tool result text, in UTF-8 bytes, before it is cut. */
  resultCapBytes?: number;
}

export interface ToolDispatcher {
  /** Throws a JSON-RPC InvalidParams ProtocolError for an unknown tool; every other outcome is a result. */
  call(name: string, args: Record<string, unknown> | undefined, authorization: string | undefined): Promise<CallToolResult>;
  has(name: string): boolean;
}

interface CompiledTool {
  validate: ValidateFunction;
  plan: RequestPlan;
  shape: ResultShape;
}

// ajv-formats is a CommonJS module whose default export lands on `.default` under NodeNext typing.
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as (a: Ajv2020) => void;

function describeError(e: ErrorObject): string {
  const path = e.instancePath.replace(/^\//, '').replace(/\/(\d+)(?=\/|$)/g, '[$1]').replaceAll('/', '.');
  if (e.keyword === 'required') {
    const missing = (e.params as { missingProperty: string }).missingProperty;
    return `\`${path ? `${path}.` : ''}${missing}\` is required`;
  }
  if (e.keyword === 'additionalProperties') {
    const extra = (e.params as { additionalProperty: string }).additionalProperty;
    return `\`${path ? `${path}.` : ''}${extra}\` is not a known argument`;
  }
  return `\`${path || '(arguments)'}\` ${e.message ?? 'is invalid'}`;
}

function invalidArguments(name: string, errors: ErrorObject[]): CallToolResult {
  const reasons = [...new Set(errors.map(describeError))];
  return {
    content: [{ type: 'text', text: `Invalid arguments for ${name}: ${reasons.join('; ')}. Fix them and call ${name} again.` }],
    isError: true,
  };
}

function compile(tools: ToolDescriptor[], capBytes: number): Map<string, CompiledTool> {
  // strict: false because OpenAPI-derived schemas carry annotation keywords (example, x-*) that ajv does not know.
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

  async function call(
    name: string,
    args: Record<string, unknown> | undefined,
    authorization: string | undefined,
  ): Promise<CallToolResult> {
    const tool = compiled.get(name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const input = args ?? {};
    if (!tool.validate(input)) return invalidArguments(name, tool.validate.errors ?? []);
    let response: Response;
    try {
      response = await send(buildRequest(tool.plan, input, baseUrl, authorization));
    } catch (error) {
      // A transport failure (API unreachable from the stdio launcher) is the tool's failure, not the protocol's.
      const reason = error instanceof Error ? error.message : String(error);
      return { content: [{ type: 'text', text: `${name} could not reach the API: ${reason}` }], isError: true };
    }
    return toToolResult(tool.shape, response);
  }

  return { call, has: (name) => compiled.has(name) };
}
