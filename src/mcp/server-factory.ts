// The one MCP server definition both transports serve: a low-level SDK `Server` per serving unit (one
// HTTP exchange, or one stdio connection) answering tools/list from a list built once and tools/call
// through the dispatcher. Nothing here outlives its unit, so no caller can observe another's request.

import {
  CLIENT_CAPABILITIES_META_KEY,
  Server,
  type Implementation,
  type McpRequestContext,
  type McpServerFactory,
  type Tool,
} from '@modelcontextprotocol/server';
import type { ToolDescriptor } from './tool-descriptor.ts';
import type { ToolDispatcher } from './dispatch.ts';
import { GUIDE_INSTRUCTIONS, guideCapabilities, registerGuide, unitReader, type GuideApi } from './guide.ts';

/** 2025-era revisions served over the initialize handshake, newest first. */
export const LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
/** The stateless revision, negotiated through server/discover. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
export const SERVED_PROTOCOL_VERSIONS: string[] = [MODERN_PROTOCOL_VERSION, ...LEGACY_PROTOCOL_VERSIONS];

/** The wire form of the tool list, built once: the descriptors minus their REST binding. */
export function toWireTools(tools: ToolDescriptor[]): Tool[] {
  return tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    ...(t.outputSchema && { outputSchema: t.outputSchema }),
    annotations: t.annotations,
  }));
}

export interface ServerFactoryOptions {
  wireTools: Tool[];
  dispatcher: ToolDispatcher;
  serverInfo: Implementation;
  /**
   * The credential a unit's tool calls carry: the HTTP request's own header, or the launcher's current one.
   * Asked at each call, since the launcher switches to a credential a call returned (signup, login).
   */
  authorization: (ctx: McpRequestContext) => string | undefined;
  /** What the mounting app verified for the unit's HTTP request, handed to the dispatcher's fetch. */
  context?: (ctx: McpRequestContext) => unknown;
  /** Sends a resource read's GET with the unit's credential and context; without it no resources are served. */
  api?: GuideApi;
}

export function createServerFactory(options: ServerFactoryOptions): McpServerFactory {
  const listResult = { tools: options.wireTools };
  const { dispatcher, serverInfo } = options;
  return (ctx) => {
    const context = options.context?.(ctx);
    const server = new Server(serverInfo, {
      capabilities: { tools: { listChanged: false }, ...guideCapabilities(options.api !== undefined) },
      supportedProtocolVersions: SERVED_PROTOCOL_VERSIONS,
      instructions: GUIDE_INSTRUCTIONS,
    });
    registerGuide(server, options.api && unitReader(options.api, () => options.authorization(ctx), context));
    server.setRequestHandler('tools/list', () => listResult);
    server.setRequestHandler('tools/call', (request) => {
      // 2026-07-28 requests carry the client's capabilities; a 2025 connection declared them at initialize
      // (known on a stdio connection, not to a stateless HTTP exchange).
      const given: unknown = request.params._meta?.[CLIENT_CAPABILITIES_META_KEY] ?? server.getClientCapabilities();
      const declared =
        typeof given === 'object' && given !== null ? (given as { elicitation?: { url?: unknown } }) : undefined;
      return dispatcher.call(request.params.name, request.params.arguments, options.authorization(ctx), context, {
        urlElicitation: declared?.elicitation?.url !== undefined,
      });
    });
    return server;
  };
}
