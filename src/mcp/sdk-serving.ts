// The SDK's own serving of both eras, for every exchange the fast path does not take (handshakes,
// discovery, malformed or unusual requests), so those answers are exactly the SDK's.
//
// - 2026-07-28: `createMcpHandler` in strict modern mode. Its default response mode (`auto`) answers JSON
//   and switches to SSE only when a handler sends a message before its result; no handler here sends any
//   (no progress, logging, sampling or elicitation), so every answer is JSON, as test/mcp/http-security
//   checks. `responseMode: 'json'` would say so too, but the SDK then prints a plain-text warning to the
//   console at start, which would land in the JSON log stream.
// - 2025 era: the SDK's stateless fallback streams SSE and this server answers JSON only, so the legacy
//   leg is the same per-request idiom with `enableJsonResponse`: a fresh Server and transport per request.

import {
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isLegacyRequest,
  type McpServerFactory,
} from '@modelcontextprotocol/server';
import { jsonRpcError } from './json-rpc.ts';

export type SdkServing = (request: Request, parsedBody: unknown) => Promise<Response>;

export function createSdkServing(factory: McpServerFactory, onerror?: (error: Error) => void): SdkServing {
  const modern = createMcpHandler(factory, { legacy: 'reject', onerror });

  async function legacy(request: Request, parsedBody: unknown): Promise<Response> {
    // Stateless serving has no session to stream on (GET) or to end (DELETE).
    if (request.method !== 'POST') return jsonRpcError(405, -32000, 'Method not allowed.', null, { allow: 'POST' });
    const server = await factory({ era: 'legacy', requestInfo: request });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    if (onerror) transport.onerror = onerror;
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
    } finally {
      void transport.close().catch(() => {});
      void server.close().catch(() => {});
    }
  }

  return async (request, parsedBody) => {
    if (await isLegacyRequest(request, parsedBody)) return legacy(request, parsedBody);
    return modern.fetch(request, parsedBody === undefined ? undefined : { parsedBody });
  };
}
