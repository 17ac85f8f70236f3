// The hot exchanges, tools/list and tools/call, answered without building an SDK Server and transport
// per request.
//
// Building those per request costs several times the REST call itself (test/mcp/bench/mcp-bench.ts),
// while sharing one instance between callers is what leaked data in SDK 1.x before 1.26. So this path
// keeps no per-caller state: only values computed at start (the serialized tool lists) and a cache of
// envelope verdicts. It takes only requests that are plainly valid for their era; anything else, and
// anything it is unsure of, returns `undefined` and is served by the SDK. It must never answer
// differently from the SDK: test/mcp/fast-path-parity.test.ts sends the same requests down both paths.

import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  classifyInboundRequest,
  type CallToolResult,
  type Implementation,
  type Tool,
} from '@modelcontextprotocol/server';
import type { ToolDispatcher } from './dispatch.ts';
import { jsonRpcResult, jsonRpcThrown } from './json-rpc.ts';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSION } from './server-factory.ts';

export type FastPath = (request: Request, message: unknown, context?: unknown) => Promise<Response> | undefined;

export interface FastPathOptions {
  wireTools: Tool[];
  dispatcher: ToolDispatcher;
  serverInfo: Implementation;
}

interface Call {
  id: string | number;
  method: 'tools/list' | 'tools/call';
  params: Record<string, unknown>;
}

type Era = 'legacy' | 'modern';
type Meta = Record<string, unknown>;

const LEGACY_VERSIONS = new Set<string>(LEGACY_PROTOCOL_VERSIONS);
const PARAM_KEYS: Record<Call['method'], Set<string>> = {
  'tools/list': new Set(['_meta']),
  'tools/call': new Set(['name', 'arguments', '_meta']),
};
const ENVELOPE_CACHE_LIMIT = 1_000;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOnlyKeys(value: Record<string, unknown>, allowed: Set<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

/** One JSON-RPC request for one of the two methods, with params of a shape the SDK also accepts. */
function plainCall(message: unknown): Call | undefined {
  if (!isPlainObject(message) || message.jsonrpc !== '2.0') return undefined;
  const { id, method } = message;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (method !== 'tools/list' && method !== 'tools/call') return undefined;
  const params = message.params ?? {};
  if (!isPlainObject(params) || !hasOnlyKeys(params, PARAM_KEYS[method])) return undefined;
  if (params._meta !== undefined && !isPlainObject(params._meta)) return undefined;
  if (method === 'tools/call') {
    if (typeof params.name !== 'string') return undefined;
    if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  }
  return { id: id as string | number, method, params };
}

/** A 2025-era request as the SDK's stateless legacy transport accepts it (same Accept and version rules). */
function isPlainLegacy(request: Request, meta: Meta | undefined): boolean {
  if (meta && PROTOCOL_VERSION_META_KEY in meta) return false;
  const token = meta?.progressToken;
  if (token !== undefined && typeof token !== 'string' && typeof token !== 'number') return false;
  const version = request.headers.get('mcp-protocol-version');
  if (version !== null && !LEGACY_VERSIONS.has(version)) return false;
  const accept = request.headers.get('accept');
  return accept !== null && accept.includes('application/json') && accept.includes('text/event-stream');
}

/** The SDK's verdict on a 2026-07-28 `_meta` envelope; clients resend the same one, so it is remembered. */
function createEnvelopeCheck(): (call: Call, meta: Meta) => boolean {
  const valid = new Set<string>();
  return (call, meta) => {
    const key = JSON.stringify(meta);
    if (valid.has(key)) return true;
    const verdict = classifyInboundRequest({
      httpMethod: 'POST',
      protocolVersionHeader: MODERN_PROTOCOL_VERSION,
      mcpMethodHeader: call.method,
      body: { jsonrpc: '2.0', id: call.id, method: call.method, params: { _meta: meta } },
    });
    if (verdict.kind !== 'modern') return false;
    if (valid.size >= ENVELOPE_CACHE_LIMIT) valid.clear();
    valid.add(key);
    return true;
  };
}

/** A 2026-07-28 request whose standard headers mirror its body, as SEP-2243 requires and the SDK checks. */
function isPlainModern(request: Request, call: Call, meta: Meta, envelopeOk: ReturnType<typeof createEnvelopeCheck>) {
  if (meta[PROTOCOL_VERSION_META_KEY] !== MODERN_PROTOCOL_VERSION) return false;
  if (!isPlainObject(meta[CLIENT_CAPABILITIES_META_KEY])) return false;
  const { headers } = request;
  if (headers.get('mcp-protocol-version') !== MODERN_PROTOCOL_VERSION) return false;
  if (headers.get('mcp-method') !== call.method) return false;
  if (call.method === 'tools/call' && headers.get('mcp-name') !== call.params.name) return false;
  return envelopeOk(call, meta);
}

export function createFastPath(options: FastPathOptions): FastPath {
  const { dispatcher } = options;
  const serverMeta = { [SERVER_INFO_META_KEY]: options.serverInfo };
  // The modern list carries the cache fields the SDK fills in when no cache hint is configured.
  const modernList = { resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: serverMeta };
  const listJson: Record<Era, string> = {
    legacy: JSON.stringify({ tools: options.wireTools }),
    modern: JSON.stringify({ tools: options.wireTools, ...modernList }),
  };
  const envelopeOk = createEnvelopeCheck();

  function eraOf(request: Request, call: Call): Era | undefined {
    const meta = call.params._meta as Meta | undefined;
    if (isPlainLegacy(request, meta)) return 'legacy';
    return meta && isPlainModern(request, call, meta, envelopeOk) ? 'modern' : undefined;
  }

  // `{...result, resultType, _meta}` serialized, with the constant tail serialized once.
  const modernTail = `,"resultType":"complete","_meta":${JSON.stringify(serverMeta)}}`;
  function encode(era: Era, result: CallToolResult): string {
    const json = JSON.stringify(result);
    if (era === 'legacy') return json;
    return json === '{}' ? `{${modernTail.slice(1)}` : json.slice(0, -1) + modernTail;
  }

  return (request, message, context) => {
    const call = plainCall(message);
    if (!call) return undefined;
    const era = eraOf(request, call);
    if (!era) return undefined;
    if (call.method === 'tools/list') return Promise.resolve(jsonRpcResult(call.id, listJson[era]));
    const name = call.params.name as string;
    // Unknown tools go to the SDK, which owns the shape of JSON-RPC errors.
    if (!dispatcher.has(name)) return undefined;
    const args = call.params.arguments as Record<string, unknown> | undefined;
    const authorization = request.headers.get('authorization') ?? undefined;
    // Only a 2026-07-28 request carries the client's capabilities; a stateless 2025 request does not.
    const capabilities =
      era === 'modern'
        ? ((call.params._meta as Meta)[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: { url?: unknown } } | undefined)
        : undefined;
    const client = { urlElicitation: capabilities?.elicitation?.url !== undefined };
    return dispatcher.call(name, args, authorization, context, client).then(
      (result) => jsonRpcResult(call.id, encode(era, result)),
      (error: unknown) => jsonRpcThrown(call.id, error),
    );
  };
}
