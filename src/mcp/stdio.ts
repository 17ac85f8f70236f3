// The `service-mcp` stdio server a desktop agent client launches: the same tools as POST /mcp, each
// call sent to the API over HTTP with the key from SERVICE_API_KEY (or the credential a signup or login
// call returned since). stdout carries protocol messages only; every problem this module reports itself is
// one line on stderr.

import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { ToolDescriptor, Toolset } from './tool-descriptor.ts';
import { retryingFetch } from '../generated/sdk-runtime.ts';
import { createToolDispatcher } from './dispatch.ts';
import { createServerFactory } from './server-factory.ts';
import {
  createConnectionView,
  createToolCatalogue,
  FULL_SELECTION,
  parseSelection,
  SelectionError,
  type ToolSelection,
} from './connection-view.ts';
import { adoptedNote, onIssuedCredential } from './issued-credential.ts';

export const DEFAULT_API_BASE = 'http://127.0.0.1:3000';
const STARTUP_CHECK_TIMEOUT_MS = 10_000;
// The admin panel's page, named as the README and the panel name it.
const KEY_HELP = 'an API key from Settings → API keys';

export interface StdioConfig {
  apiKey: string;
  apiBase: string;
}

/** Thrown for a configuration the launcher cannot serve with; the message is the one stderr line. */
export class LaunchError extends Error {}

/** Reads the launcher's two variables. Only SERVICE_API_KEY names the key; look-alikes are ignored. */
export function readConfig(env: NodeJS.ProcessEnv): StdioConfig {
  const apiKey = env.SERVICE_API_KEY?.trim();
  if (!apiKey) {
    throw new LaunchError(
      `service-mcp: SERVICE_API_KEY is not set; add it to the "env" of this server in your MCP client ` +
        `configuration (${KEY_HELP}) and restart the client.`,
    );
  }
  const apiBase = (env.SERVICE_API_BASE?.trim() || DEFAULT_API_BASE).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(apiBase)) {
    throw new LaunchError(`service-mcp: SERVICE_API_BASE must be an http(s) URL, got "${apiBase}".`);
  }
  return { apiKey, apiBase };
}

/**
 * What the client's connection sees: SERVICE_TOOLSETS (comma-separated toolset names, or all),
 * SERVICE_READONLY (true: read-only tools only) and SERVICE_TOOLS (discover: the three discovery tools).
 */
export function readSelection(env: NodeJS.ProcessEnv, toolsets: Toolset[]): ToolSelection {
  try {
    return parseSelection(
      { toolsets: env.SERVICE_TOOLSETS, readonly: env.SERVICE_READONLY, tools: env.SERVICE_TOOLS },
      toolsets,
      { toolsets: 'SERVICE_TOOLSETS', readonly: 'SERVICE_READONLY', tools: 'SERVICE_TOOLS' },
    );
  } catch (error) {
    if (error instanceof SelectionError) throw new LaunchError(`service-mcp: ${error.message}`);
    throw error;
  }
}

function unreachable(config: StdioConfig, error: unknown): LaunchError {
  const { cause } = error as { cause?: { code?: string; message?: string } };
  const detail = cause?.code ?? cause?.message;
  const reason = `${error instanceof Error ? error.message : String(error)}${detail ? ` (${detail})` : ''}`;
  return new LaunchError(`service-mcp: cannot reach the API at ${config.apiBase} (SERVICE_API_BASE): ${reason}.`);
}

/** Fails fast on a key the API rejects, so the client shows an error rather than tools that all fail. */
export async function checkKey(config: StdioConfig, send: typeof fetch = fetch): Promise<void> {
  const url = `${config.apiBase}/api/v1/users/me`;
  let response: Response;
  try {
    response = await send(url, {
      headers: { authorization: `Bearer ${config.apiKey}`, accept: 'application/json' },
      signal: AbortSignal.timeout(STARTUP_CHECK_TIMEOUT_MS),
    });
  } catch (error) {
    throw unreachable(config, error);
  }
  await response.body?.cancel();
  if (response.status === 401 || response.status === 403) {
    throw new LaunchError(
      `service-mcp: the API at ${config.apiBase} rejected SERVICE_API_KEY (HTTP ${response.status}); ` +
        `the key is wrong, revoked or for another host. Use ${KEY_HELP}.`,
    );
  }
  if (!response.ok) {
    throw new LaunchError(
      `service-mcp: ${url} answered HTTP ${response.status}; check that SERVICE_API_BASE is the API host ` +
        `(not the marketing site).`,
    );
  }
}

export interface StdioServerOptions {
  tools: ToolDescriptor[];
  /** The toolsets a selection may name (none: only the full list). */
  toolsets?: Toolset[];
  /** What the connection sees; every tool by default. */
  selection?: ToolSelection;
  config: StdioConfig;
  /** Sends REST requests; global fetch by default. The generated API client can take its place. */
  fetch?: (request: Request) => Promise<Response>;
  /** The serverInfo version; this checkout's package.json by default (the installable package passes its own). */
  version?: string;
}

export function startStdioServer(options: StdioServerOptions) {
  const { config } = options;
  // The generated SDK's transport: retries 429/503 honouring Retry-After, like every SDK call.
  const send = options.fetch ?? retryingFetch((request: Request) => fetch(request), 2, 30_000);
  const version =
    options.version ?? (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
  const dispatcher = createToolDispatcher({ tools: options.tools, fetch: send, baseUrl: config.apiBase });
  // Held for the process only: after signup or login the agent acts in the account it just got, and a
  // restart starts again from SERVICE_API_KEY. A failed call returns no credential and changes nothing.
  let authorization = `Bearer ${config.apiKey}`;
  const adopting = onIssuedCredential(dispatcher, adoptedNote, (issued) => {
    authorization = `Bearer ${issued.accessToken}`;
  });
  const catalogue = createToolCatalogue(options.tools, options.toolsets ?? []);
  const view = createConnectionView(catalogue, adopting, options.selection ?? FULL_SELECTION);
  const factory = createServerFactory({
    wireTools: view.wireTools,
    dispatcher: view.dispatcher,
    serverInfo: { name: 'service-mcp', version },
    authorization: () => authorization,
    // Resource reads are GETs to the API with the credential tool calls use at that moment.
    api: (path, current) =>
      send(
        new Request(`${config.apiBase}${path}`, {
          headers: { accept: 'application/json', authorization: current ?? '' },
        }),
      ),
  });
  return serveStdio(factory, { onerror: (error) => process.stderr.write(`service-mcp: ${error.message}\n`) });
}

/** `--tools <module>` serves another descriptor module (tests, a reduced toolset); else the generated one. */
async function loadTools(argv: string[]): Promise<{ tools: ToolDescriptor[]; toolsets: Toolset[] }> {
  const flag = argv.indexOf('--tools');
  const path = flag >= 0 ? argv[flag + 1] : undefined;
  // A module namespace is an object; what it exports is checked below. The generated module is named literally,
  // so the build bundles it (bin/service-mcp.js runs the build).
  const loaded: { toolDescriptors?: unknown; toolsets?: unknown } = path
    ? await import(pathToFileURL(path).href)
    : await import('../generated/mcp-tools.ts');
  if (!Array.isArray(loaded.toolDescriptors)) {
    throw new LaunchError(`service-mcp: ${path ?? 'the generated tool module'} exports no toolDescriptors array.`);
  }
  return { tools: loaded.toolDescriptors, toolsets: Array.isArray(loaded.toolsets) ? loaded.toolsets : [] };
}

export async function main(argv = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): Promise<void> {
  try {
    const config = readConfig(env);
    const { tools, toolsets } = await loadTools(argv);
    const selection = readSelection(env, toolsets);
    await checkKey(config);
    startStdioServer({ tools, toolsets, selection, config });
  } catch (error) {
    const line = error instanceof LaunchError ? error.message : `service-mcp: failed to start: ${String(error)}`;
    process.stderr.write(`${line.replaceAll('\n', ' ')}\n`);
    process.exit(1);
  }
}
