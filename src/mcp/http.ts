// The Streamable HTTP entry for POST /mcp: stateless, JSON responses, both protocol eras. The app mounts
// it after its auth middleware, so every request that reaches it already carries an accepted credential;
// the app's `admit` hook counts each exchange's messages before any of them runs.

import { isJsonContentType, readRequestBody, type Implementation } from '@modelcontextprotocol/server';
import type { ToolDescriptor, Toolset } from './tool-descriptor.ts';
import type { ToolDispatcher } from './dispatch.ts';
import { createServerFactory } from './server-factory.ts';
import { createSdkServing, type SdkServing } from './sdk-serving.ts';
import { createFastPath, type FastPath } from './fast-path.ts';
import {
  createConnectionView,
  createToolCatalogue,
  FULL_SELECTION,
  selectionKey,
  type ToolSelection,
} from './connection-view.ts';
import { createHostCheck, createOriginCheck } from './origin.ts';
import { jsonRpcError } from './json-rpc.ts';
import { refuseBatch } from './batch.ts';
import { onIssuedCredential, reconnectNote } from './issued-credential.ts';
import type { GuideApi } from './guide.ts';

export interface McpHttpHandlerOptions {
  tools: ToolDescriptor[];
  /** The toolsets a connection may ask for (none: only the full list). */
  toolsets?: Toolset[];
  dispatcher: ToolDispatcher;
  serverInfo: Implementation;
  /**
   * Browser origins allowed to call /mcp: `https://app.example.com` matches that origin exactly, a bare
   * hostname (`localhost`) any scheme and port. Requests without Origin (non-browser clients) pass.
   */
  allowedOrigins?: string[];
  /**
   * Set for a server bound to loopback: the Host header must then be a loopback name or one of these
   * hostnames (DNS rebinding protection). Unset: Host is not checked.
   */
  allowedHosts?: string[];
  /** Largest POST body read, in bytes (default 4 MiB, the SDK's). */
  maxRequestBodySize?: number;
  /** Answer plain tools/list and tools/call without a per-request SDK server (default true). */
  fastPath?: boolean;
  /** Reports rejected or failed exchanges for logging; it never changes a response. */
  onerror?: (error: Error) => void;
  /** Sends the GETs of resource reads, with the exchange's credential and context (see ServerFactoryOptions). */
  api?: GuideApi;
}

/** Per-exchange hooks of the mounting app. */
export interface McpExchange {
  /**
   * Called once per exchange, after the Origin and Host checks and before anything runs, with the number of
   * JSON-RPC messages it carries (1 for a GET, DELETE or unparseable body). Throws to refuse the exchange.
   */
  admit?(messages: number): void;
  /** Handed to the dispatcher with every tool call of the exchange (the app's verified caller). */
  context?: unknown;
  /** What the connection asked to see (its toolsets, read-only, discovery); every tool by default. */
  selection?: ToolSelection;
}

export type McpHttpHandler = (request: Request, exchange?: McpExchange) => Promise<Response>;

function parse(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The body text, or undefined when it is over the limit. */
async function readBody(request: Request, maxBytes: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  // With a declared length in bounds, text() lets @hono/node-server read the socket directly; touching
  // `request.body` first converts the Node stream to a web stream, which costs more than the REST call.
  if (declared <= maxBytes) return request.text();
  const read = await readRequestBody(request, maxBytes);
  return read.tooLarge ? undefined : read.text;
}

// Distinct selections are few in practice (a client keeps its URL); the cap bounds what odd ones can hold.
const SERVING_CACHE_LIMIT = 64;

interface Serving {
  fast: FastPath;
  sdk: SdkServing;
}

export function createMcpHttpHandler(options: McpHttpHandlerOptions): McpHttpHandler {
  const { serverInfo } = options;
  // Wrapped once for both serving paths, so the fast path and the SDK add the same note. A stateless
  // connection cannot switch credentials, so a result that issues one tells the client to reconnect.
  const dispatcher = onIssuedCredential(options.dispatcher, reconnectNote);
  // The SDK hands the factory the request it serves, so the exchange's context is found by request.
  const contexts = new WeakMap<Request, unknown>();
  const catalogue = createToolCatalogue(options.tools, options.toolsets ?? []);
  const servings = new Map<string, Serving>();

  /** The SDK serving and fast path of one selection, built on first use and kept. */
  function servingFor(selection: ToolSelection): Serving {
    const key = selectionKey(selection);
    const kept = servings.get(key);
    if (kept) return kept;
    const view = createConnectionView(catalogue, dispatcher, selection);
    const factory = createServerFactory({
      wireTools: view.wireTools,
      dispatcher: view.dispatcher,
      serverInfo,
      authorization: (ctx) => ctx.requestInfo?.headers.get('authorization') ?? undefined,
      context: (ctx) => (ctx.requestInfo ? contexts.get(ctx.requestInfo) : undefined),
      api: options.api,
    });
    const serving: Serving = {
      sdk: createSdkServing(factory, options.onerror),
      fast:
        options.fastPath === false
          ? () => undefined
          : createFastPath({ wireTools: view.wireTools, dispatcher: view.dispatcher, serverInfo }),
    };
    if (servings.size >= SERVING_CACHE_LIMIT) servings.delete(servings.keys().next().value as string);
    servings.set(key, serving);
    return serving;
  }
  servingFor(FULL_SELECTION);
  const checkOrigin = createOriginCheck(options.allowedOrigins ?? []);
  const checkHost = options.allowedHosts ? createHostCheck(options.allowedHosts) : () => undefined;
  const maxBytes = options.maxRequestBodySize ?? 4 * 1024 * 1024;
  const tooLarge = `Payload Too Large: Request body must not exceed ${maxBytes} bytes`;

  return async (request, exchange = {}) => {
    const refused = checkHost(request) ?? checkOrigin(request);
    if (refused) return refused;
    const { sdk, fast } = servingFor(exchange.selection ?? FULL_SELECTION);
    const json = request.method === 'POST' && isJsonContentType(request.headers.get('content-type'));
    if (!json) {
      exchange.admit?.(1);
      return sdk(request, undefined);
    }
    const text = await readBody(request, maxBytes);
    if (text === undefined) return jsonRpcError(413, -32000, tooLarge);
    const message = parse(text);
    exchange.admit?.(Array.isArray(message) ? Math.max(1, message.length) : 1);
    const batchRefused = Array.isArray(message) ? refuseBatch(request, message) : undefined;
    if (batchRefused) return batchRefused;
    const answered = fast(request, message, exchange.context);
    if (answered) return answered;
    // The body is consumed; the SDK gets an equivalent request (only on this slower, rarer path).
    const { url, headers, signal } = request;
    const forwarded = new Request(url, { method: 'POST', headers, body: text, signal });
    if (exchange.context !== undefined) contexts.set(forwarded, exchange.context);
    return sdk(forwarded, message);
  };
}
