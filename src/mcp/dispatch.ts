// Runs MCP tool calls through the REST pipeline: check the arguments, build the HTTP request from the
// tool's binding, send it with the caller's credential through `fetch`, and shape the response as a tool
// result.

import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import {
  ProtocolError,
  ProtocolErrorCode,
  UrlElicitationRequiredError,
  type CallToolResult,
} from '@modelcontextprotocol/server';
import type { ToolDescriptor } from './tool-descriptor.ts';
import { buildRequest, planRequest, unsendableHeaders, type RequestPlan } from './tool-request.ts';
import { argumentNames } from './argument-names.ts';
import { pagingHint, toToolResult, type ResultShape } from './tool-result.ts';

export interface ToolDispatcherOptions {
  tools: ToolDescriptor[];
  /**
   * Sends one REST request: the in-process app (`app.fetch`) on the server, global fetch in stdio.
   * `context` is what the caller of `call` handed over for its exchange (the server's verified caller).
   */
  fetch: (request: Request, context?: unknown) => Promise<Response>;
  /** Prefix for the binding paths; the in-process app only needs a syntactically valid origin. */
  baseUrl?: string;
  /**
   * Who validates argument values. `schema` (default): the dispatcher, against each tool's inputSchema,
   * before any request; for an API across a network (the stdio launcher), where a bad call would otherwise
   * cost a round trip and a request of the key's quota. `api`: the REST route's own validation is the one
   * check (the in-process server), whose problem the result reports under the tool's argument names; the
   * dispatcher then checks only what building the request needs: known argument names and the path
   * arguments.
   */
  validation?: 'schema' | 'api';
  /** Largest tool result text, in UTF-8 bytes, before it is cut (default 100 000). */
  resultCapBytes?: number;
  /**
   * The body text the app already holds for a response it produced in-process, or undefined to read the
   * body. Reading an in-process response back (undici Response, web stream) costs more CPU than the
   * rest of a tool call; an app that records the JSON it serialized can hand it over instead.
   */
  responseText?: (response: Response) => string | undefined;
}

/** What the calling MCP client declared it can do, as far as a tool call's answer depends on it. */
export interface ClientAbilities {
  /** URL-mode elicitation (MCP 2025-11-25 and later): a call that needs the human's consent in a browser fails with -32042 carrying the URL. */
  urlElicitation?: boolean;
}

export interface ToolDispatcher {
  /**
   * Throws a JSON-RPC InvalidParams ProtocolError for an unknown tool, and the -32042 URL elicitation
   * error when the API asks for the human's consent and the client can show it; every other outcome
   * is a result.
   */
  call(
    name: string,
    args: Record<string, unknown> | undefined,
    authorization: string | undefined,
    context?: unknown,
    client?: ClientAbilities,
  ): Promise<CallToolResult>;
  has(name: string): boolean;
}

interface CompiledTool {
  validate: (args: Record<string, unknown>) => string[];
  plan: RequestPlan;
  shape: ResultShape;
}

// ajv-formats is CommonJS: the default import is its module.exports, which holds the plugin on `.default` too.
const addFormats = addFormatsPlugin.default;

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

function invalidArguments(name: string, reasons: string[]): CallToolResult {
  const text = `Invalid arguments for ${name}: ${[...new Set(reasons)].join('; ')}. Fix them and call ${name} again.`;
  return { content: [{ type: 'text', text }], isError: true };
}

function failed(name: string, error: unknown): CallToolResult {
  const reason = error instanceof Error ? error.message : String(error);
  const text = `${name} failed: the API could not be reached or its response could not be read (${reason}).`;
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * A 409 problem whose `elicitation` member asks for the human's consent at a URL (a connector waiting
 * for it) as the -32042 error, so the client shows the URL and retries the same call.
 */
function consentElicitation(body: string): UrlElicitationRequiredError | undefined {
  let problem: {
    elicitation?: { mode?: unknown; url?: unknown; elicitation_id?: unknown; message?: unknown };
    detail?: unknown;
  };
  try {
    problem = JSON.parse(body) as typeof problem;
  } catch {
    return undefined;
  }
  const e = problem?.elicitation;
  if (!e || e.mode !== 'url' || typeof e.url !== 'string' || typeof e.elicitation_id !== 'string') return undefined;
  const message = typeof e.message === 'string' ? e.message : 'Open this URL to continue, then retry.';
  return new UrlElicitationRequiredError(
    [{ mode: 'url', url: e.url, elicitationId: e.elicitation_id, message }],
    typeof problem.detail === 'string' ? problem.detail : message,
  );
}

// Compiled at the tool's first call: the stdio launcher serves a few hundred tools and starts without compiling them.
function schemaValidator(ajv: Ajv2020, tool: ToolDescriptor): CompiledTool['validate'] {
  let validate: ValidateFunction | undefined;
  return (args) => {
    validate ??= ajv.compile(tool.inputSchema);
    return validate(args) ? [] : (validate.errors ?? []).map(describeError);
  };
}

/** What building the request needs: every argument bound somewhere, every path argument a non-empty scalar. */
function bindingValidator(tool: ToolDescriptor, plan: RequestPlan): CompiledTool['validate'] {
  const known = new Set(tool.binding.args.map((a) => a.name));
  return (args) => {
    const reasons: string[] = [];
    for (const name in args) if (!known.has(name)) reasons.push(`\`${name}\` is not a known argument`);
    for (const name of plan.pathArgs) {
      const value = args[name];
      if (value === undefined || value === null) reasons.push(`\`${name}\` is required`);
      else if (typeof value === 'object' || value === '') reasons.push(`\`${name}\` must be a non-empty string`);
    }
    return reasons;
  };
}

function compile(tools: ToolDescriptor[], capBytes: number, validation: 'schema' | 'api'): Map<string, CompiledTool> {
  // strict: false because OpenAPI-derived schemas carry annotation keywords (example, x-*) ajv does not know.
  const ajv =
    validation === 'schema' ? new Ajv2020({ allErrors: true, strict: false, validateSchema: false }) : undefined;
  if (ajv) addFormats(ajv);
  const compiled = new Map<string, CompiledTool>();
  for (const tool of tools) {
    if (compiled.has(tool.name)) throw new Error(`duplicate tool name ${tool.name}`);
    const plan = planRequest(tool);
    compiled.set(tool.name, {
      validate: ajv ? schemaValidator(ajv, tool) : bindingValidator(tool, plan),
      plan,
      shape: {
        name: tool.name,
        structured: tool.outputSchema !== undefined,
        pagingHint: pagingHint(tool.name, tool.inputSchema),
        capBytes,
        argumentNames: argumentNames(tool),
      },
    });
  }
  return compiled;
}

export function createToolDispatcher(options: ToolDispatcherOptions): ToolDispatcher {
  const capBytes = options.resultCapBytes ?? 100_000;
  if (!(capBytes >= 1_000)) throw new Error('resultCapBytes must be at least 1000');
  const baseUrl = (options.baseUrl ?? 'http://localhost').replace(/\/$/, '');
  const compiled = compile(options.tools, capBytes, options.validation ?? 'schema');
  const send = options.fetch;
  const known = options.responseText ?? (() => undefined);

  async function call(
    name: string,
    args: Record<string, unknown> | undefined,
    authorization: string | undefined,
    context?: unknown,
    client?: ClientAbilities,
  ): Promise<CallToolResult> {
    const tool = compiled.get(name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const input = args ?? {};
    const reasons = tool.validate(input);
    if (reasons.length === 0) reasons.push(...unsendableHeaders(tool.plan, input));
    if (reasons.length > 0) return invalidArguments(name, reasons);
    try {
      const response = await send(buildRequest(tool.plan, input, baseUrl, authorization), context);
      const body = known(response) ?? (await response.text());
      const consent = client?.urlElicitation && response.status === 409 ? consentElicitation(body) : undefined;
      if (consent) throw consent;
      return toToolResult(tool.shape, response, body);
    } catch (error) {
      if (error instanceof UrlElicitationRequiredError) throw error;
      // An unreachable API (stdio launcher) or a response cut off is the tool's failure, not the protocol's.
      return failed(name, error);
    }
  }

  return { call, has: (name) => compiled.has(name) };
}
