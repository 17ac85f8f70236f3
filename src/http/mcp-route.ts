// Mounts the MCP Streamable HTTP endpoint at /mcp behind the same bearer authentication as the REST
// operations. Tool calls run through the app itself (app.fetch), so scope checks, workspace scoping,
// validation, throttling and error mapping are the REST pipeline's own; the caller's connection is
// carried along so per-address throttling of public operations sees the real client.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Hono } from 'hono';
import type { Deps } from '../deps.ts';
import { toolDescriptors } from '../generated/mcp-tools.ts';
import { createToolDispatcher } from '../mcp/dispatch.ts';
import { createMcpHttpHandler } from '../mcp/http.ts';
import { authenticate } from './operation-guard.ts';
import type { AppEnv } from './request-context.ts';

export const MCP_PATH = '/mcp';

export function mcpRoutes(app: Hono<AppEnv>, deps: Deps, responseText: (response: Response) => string | undefined): void {
  const connection = new AsyncLocalStorage<AppEnv['Bindings']>();
  const dispatcher = createToolDispatcher({
    tools: toolDescriptors,
    fetch: async (request) => app.fetch(request, connection.getStore()),
    resultCapBytes: deps.config.mcpResultCapBytes,
    responseText,
  });
  const handler = createMcpHttpHandler({
    tools: toolDescriptors,
    dispatcher,
    serverInfo: { name: 'service-mcp', version: '0.1.0' },
    allowedOrigins: deps.config.mcpAllowedOrigins,
    onerror: (error) => deps.log.warn({ err: error.message }, 'mcp exchange refused'),
  });
  // Tool calls are throttled as the REST operations they run; the envelope itself is not counted twice.
  app.on(['GET', 'POST', 'DELETE'], MCP_PATH, authenticate(deps.authenticator), (c) => connection.run(c.env, () => handler(c.req.raw)));
}
