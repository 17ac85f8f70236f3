// Mounts the MCP Streamable HTTP endpoint at /mcp behind the same bearer authentication as the REST
// operations. Every JSON-RPC message counts once against the caller's credential, as a REST request does.
// Tool calls run through the app itself (app.fetch), so scope checks, workspace scoping, validation and
// error mapping are the REST pipeline's own; what the /mcp request verified (principal, request id,
// client address) is carried into that in-process request, so the credential is checked and counted once,
// the logs link the two, and public operations are throttled per the real client address.
import type { Context, Hono } from 'hono';
import type { Deps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { toolDescriptors, toolsets } from '../generated/mcp-tools.ts';
import { parseSelection, SelectionError, type SelectionInput, type ToolSelection } from '../mcp/connection-view.ts';
import { createToolDispatcher } from '../mcp/dispatch.ts';
import { createMcpHttpHandler } from '../mcp/http.ts';
import { isLoopbackHostname } from '../mcp/origin.ts';
import { authenticate, countCredential } from './operation-guard.ts';
import type { AppEnv, CarriedContext } from './request-context.ts';

export const MCP_PATH = '/mcp';

/** The Host names a loopback-bound server answers to: loopback ones and the public base URL's. */
function allowedHosts(deps: Deps): string[] | undefined {
  const bind = deps.config.host.replace(/^\[(.*)\]$/, '$1');
  if (!isLoopbackHostname(bind) && !bind.startsWith('127.')) return undefined;
  return [new URL(deps.config.publicBaseUrl).hostname];
}

/** Each setting's header and query parameter; the header wins when both are given. */
const SETTINGS: Record<keyof SelectionInput, { header: string; query: string }> = {
  toolsets: { header: 'X-MCP-Toolsets', query: 'toolsets' },
  readonly: { header: 'X-MCP-Readonly', query: 'readonly' },
  tools: { header: 'X-MCP-Tools', query: 'tools' },
};

/** What the connection asks to see; an unknown value is a 400 problem naming the setting and the valid values. */
function selectionOf(c: Context<AppEnv>): ToolSelection {
  const input: SelectionInput = {};
  const names = { toolsets: '', readonly: '', tools: '' };
  const fields: Record<string, string> = {};
  for (const [setting, { header, query }] of Object.entries(SETTINGS) as Array<
    [keyof SelectionInput, typeof SETTINGS.tools]
  >) {
    const fromHeader = c.req.header(header)?.trim();
    const value = fromHeader || c.req.query(query);
    input[setting] = value;
    names[setting] = fromHeader ? `The ${header} header` : `?${query}`;
    fields[setting] = fromHeader ? `header.${header.toLowerCase()}` : `query.${query}`;
  }
  try {
    return parseSelection(input, toolsets, names);
  } catch (error) {
    if (!(error instanceof SelectionError)) throw error;
    throw new ApiError('validation_failed', error.message, {
      errors: [{ field: fields[error.setting], code: 'invalid_value', message: error.message }],
      extensions: { valid: error.valid },
    });
  }
}

export function mcpRoutes(
  app: Hono<AppEnv>,
  deps: Deps,
  responseText: (response: Response) => string | undefined,
): void {
  const dispatcher = createToolDispatcher({
    tools: toolDescriptors,
    // The context is the CarriedContext this route hands the handler below; nothing else supplies one.
    fetch: async (request, context) => app.fetch(request, { carried: context as CarriedContext | undefined }),
    // The REST route validates the arguments; checking them against the tool schema too would be a second,
    // different validator on every call.
    validation: 'api',
    resultCapBytes: deps.config.mcpResultCapBytes,
    responseText,
  });
  const handler = createMcpHttpHandler({
    tools: toolDescriptors,
    toolsets,
    dispatcher,
    // One version for the service: the contract's, which the API reference and the packages show too.
    serverInfo: { name: 'service-mcp', version: deps.contract.version },
    allowedOrigins: deps.config.mcpAllowedOrigins,
    allowedHosts: allowedHosts(deps),
    onerror: (error) => deps.log.warn({ err: error.message }, 'mcp exchange refused'),
    // Resource reads are REST GETs through the app, carrying the exchange's verified caller like tool calls.
    api: async (path, authorization, context) => {
      const headers = { accept: 'application/json', ...(authorization && { authorization }) };
      return app.fetch(new Request(`http://localhost${path}`, { headers }), {
        carried: context as CarriedContext | undefined,
      });
    },
  });
  const { config } = deps;
  const { limiter } = deps.auth;
  app.on(['GET', 'POST', 'DELETE'], MCP_PATH, authenticate(deps.auth.authenticator), async (c) => {
    const principal = c.get('principal');
    if (!principal) throw new Error('/mcp reached without a principal');
    const selection = selectionOf(c);
    let limits: Record<string, string> = {};
    const admit = (messages: number) => {
      limits = countCredential(limiter, config.rateLimit, principal, messages);
    };
    const context: CarriedContext = { principal, requestId: c.get('requestId'), clientAddress: c.get('clientAddress') };
    const response = await handler(c.req.raw, { admit, context, selection });
    for (const [name, value] of Object.entries(limits)) response.headers.set(name, value);
    return response;
  });
}
