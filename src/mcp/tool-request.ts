// Builds the REST request for one tool call from the tool's binding, planned once per tool.
//
// Serialization rules (OpenAPI's defaults for the parameter styles our contract uses):
// - path: `String(value)` percent-encoded with encodeURIComponent, so `/` or `?` in an id cannot change
//   the route;
// - query: scalars as `String(value)`, arrays repeat the key (`?tag=a&tag=b`, form/explode) or, where the
//   contract says `explode: false`, go as one comma-joined value (`?status=queued,running`; an empty array is
//   no filter), objects as one JSON string (the contract has no deepObject parameters), null and undefined
//   omitted;
// - header: scalars as `String(value)`, arrays comma-joined (an RFC 9110 list), objects as JSON;
// - body: `merged` gathers the body args into one object under their keys, `whole` sends the one body
//   arg as is; JSON media types are JSON-encoded, a string for another media type (text/csv) verbatim.

import type { ToolArg, ToolDescriptor } from './tool-descriptor.ts';

export interface RequestPlan {
  method: string;
  /** Literal path pieces; the path arg names sit between them (pieces.length === pathArgs.length + 1). */
  pieces: string[];
  pathArgs: string[];
  query: ToolArg[];
  headers: ToolArg[];
  body: ToolArg[];
  bodyMode: 'none' | 'merged' | 'whole';
  contentType: string;
  jsonBody: boolean;
}

// Framing and credential headers come from the MCP request, never from tool arguments.
/** Set on every REST request a tool call makes (the stdio launcher's too); operations gated on a person read it. */
export const TOOL_CALL_HEADER = 'x-service-client';
const RESERVED_HEADERS = new Set([
  'authorization',
  'host',
  'content-length',
  'content-type',
  'cookie',
  'transfer-encoding',
  TOOL_CALL_HEADER,
]);
const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json\b/i;
const PATH_PARAM = /\{([^}]+)\}/;

/** Splits `/a/{x}/b` into literal pieces and the argument names that fill the gaps. */
function planPath(tool: ToolDescriptor): { pieces: string[]; pathArgs: string[] } {
  const argByKey = new Map(tool.binding.args.filter((a) => a.in === 'path').map((a) => [a.key, a.name]));
  const required = new Set((tool.inputSchema.required as string[] | undefined) ?? []);
  const pieces: string[] = [];
  const pathArgs: string[] = [];
  let rest = tool.binding.path;
  for (let m = PATH_PARAM.exec(rest); m; m = PATH_PARAM.exec(rest)) {
    const argName = argByKey.get(m[1]);
    // A path argument the schema lets the caller omit would put "undefined" into the route.
    if (!argName || !required.has(argName)) {
      throw new Error(`tool ${tool.name}: path parameter {${m[1]}} needs a required argument`);
    }
    pieces.push(rest.slice(0, m.index));
    pathArgs.push(argName);
    rest = rest.slice(m.index + m[0].length);
  }
  pieces.push(rest);
  return { pieces, pathArgs };
}

export function planRequest(tool: ToolDescriptor): RequestPlan {
  const { binding, name } = tool;
  const bodyArgs = binding.args.filter((a) => a.in === 'body');
  if (binding.body === 'whole' && bodyArgs.length !== 1) {
    throw new Error(`tool ${name}: a whole-body binding needs exactly one body argument`);
  }
  const headers = binding.args.filter((a) => a.in === 'header');
  const reserved = headers.find((a) => RESERVED_HEADERS.has(a.key.toLowerCase()));
  if (reserved) throw new Error(`tool ${name}: header argument ${reserved.key} is reserved for the transport`);
  const contentType = binding.contentType ?? 'application/json';
  return {
    method: binding.method,
    ...planPath(tool),
    query: binding.args.filter((a) => a.in === 'query'),
    headers,
    body: bodyArgs,
    bodyMode: binding.body,
    contentType,
    jsonBody: JSON_MEDIA.test(contentType),
  };
}

function scalar(value: unknown): string {
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function buildUrl(plan: RequestPlan, args: Record<string, unknown>, baseUrl: string): string {
  let url = baseUrl + plan.pieces[0];
  for (let i = 0; i < plan.pathArgs.length; i++) {
    url += encodeURIComponent(scalar(args[plan.pathArgs[i]])) + plan.pieces[i + 1];
  }
  let sep = url.includes('?') ? '&' : '?';
  for (const arg of plan.query) {
    const value = args[arg.name];
    if (value === undefined || value === null) continue;
    if (arg.explode === false && Array.isArray(value)) {
      if (!value.length) continue;
      url += `${sep}${encodeURIComponent(arg.key)}=${value.map((item) => encodeURIComponent(scalar(item))).join(',')}`;
      sep = '&';
      continue;
    }
    for (const item of Array.isArray(value) ? value : [value]) {
      url += `${sep}${encodeURIComponent(arg.key)}=${encodeURIComponent(scalar(item))}`;
      sep = '&';
    }
  }
  return url;
}

function buildBody(plan: RequestPlan, args: Record<string, unknown>): string | undefined {
  if (plan.bodyMode === 'none') return undefined;
  let body: unknown;
  if (plan.bodyMode === 'whole') {
    body = args[plan.body[0].name];
    if (body === undefined) return undefined;
  } else {
    const merged: Record<string, unknown> = {};
    for (const arg of plan.body) if (args[arg.name] !== undefined) merged[arg.key] = args[arg.name];
    body = merged;
  }
  return !plan.jsonBody && typeof body === 'string' ? body : JSON.stringify(body);
}

/** Values of header arguments that no HTTP header can carry (NUL, CR, LF, characters above U+00FF), as argument errors. */
export function unsendableHeaders(plan: RequestPlan, args: Record<string, unknown>): string[] {
  const reasons: string[] = [];
  for (const arg of plan.headers) {
    const value = args[arg.name];
    if (value === undefined || value === null) continue;
    try {
      new Headers([[arg.key, Array.isArray(value) ? value.map(scalar).join(', ') : scalar(value)]]);
    } catch {
      reasons.push(
        `\`${arg.name}\` is sent as the ${arg.key} header and must not contain NUL, CR, LF or characters above U+00FF`,
      );
    }
  }
  return reasons;
}

export function buildRequest(
  plan: RequestPlan,
  args: Record<string, unknown>,
  baseUrl: string,
  authorization: string | undefined,
): Request {
  // Text results (a CSV download) are tool results too; JSON stays preferred.
  const headers: Record<string, string> = { accept: 'application/json, application/problem+json, text/*;q=0.8' };
  for (const arg of plan.headers) {
    const value = args[arg.name];
    if (value === undefined || value === null) continue;
    headers[arg.key.toLowerCase()] = Array.isArray(value) ? value.map(scalar).join(', ') : scalar(value);
  }
  if (authorization !== undefined) headers.authorization = authorization;
  // Marks the request as a tool call, so operations that need a person (approving a sequence) refuse it.
  headers[TOOL_CALL_HEADER] = 'mcp';
  const body = buildBody(plan, args);
  if (body !== undefined) headers['content-type'] = plan.contentType;
  return new Request(buildUrl(plan, args, baseUrl), { method: plan.method, headers, body });
}
