// Origin and Host validation against DNS rebinding and cross-site use of /mcp. Browsers always send
// Origin, other clients do not, so a present Origin must be loopback or on the allow-list. A server bound
// to loopback is what DNS rebinding targets (a page on evil.example re-resolved to 127.0.0.1 sends
// `Host: evil.example`), so there the Host must name loopback or one of the server's own hosts.

import { jsonRpcError } from './json-rpc.ts';

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for `localhost`, `127.0.0.1` and `::1` / `[::1]`: what a loopback bind or page is called. */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return LOOPBACK_HOSTNAMES.has(name) || name === '::1';
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * Loopback origins (`http(s)://localhost`, `127.0.0.1`, `[::1]`, any port) always pass: such a page runs
 * on the user's own machine (the MCP Inspector's UI, a dev server). Entries with a scheme
 * (`https://app.example.com`) match that origin exactly; bare hostnames (`app.example.com`) match any
 * scheme and port, as the SDK's own Origin helpers do.
 */
export function createOriginCheck(allowed: string[]): (request: Request) => Response | undefined {
  const origins = new Set<string>();
  const hostnames = new Set<string>();
  for (const entry of allowed) {
    // An opaque origin (`chrome-extension://id`) serializes as `null`, which must never become allowed.
    if (entry.includes('://')) origins.add(new URL(entry).origin === 'null' ? entry : new URL(entry).origin);
    else hostnames.add(entry.toLowerCase());
  }
  return (request) => {
    const origin = request.headers.get('origin');
    if (origin === null || origin === '' || origins.has(origin)) return undefined;
    const url = parseUrl(origin);
    // `null` and unparseable origins come from opaque contexts (sandboxed frames, file:) and are refused.
    const web = url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:');
    const known = web && (origins.has(url.origin) || hostnames.has(url.hostname) || isLoopbackHostname(url.hostname));
    return known ? undefined : jsonRpcError(403, -32000, `Forbidden: Origin ${origin} is not allowed`);
  };
}

/**
 * The hostname of a Host header without its port, lower-cased. Not normalized the way a URL parser would
 * (`127.1`, `localhost.`): such spellings are refused, which is the safe side.
 */
function hostnameOf(host: string): string {
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.indexOf(':');
  return (end > 0 ? host.slice(0, end) : host).toLowerCase();
}

/**
 * For a server bound to loopback: the Host must be a loopback name or one of `ownHosts` (the public host
 * a reverse proxy forwards), any port. A request without Host (HTTP/1.0, in-process calls) passes: DNS
 * rebinding needs a browser, and browsers always send it.
 */
export function createHostCheck(ownHosts: string[]): (request: Request) => Response | undefined {
  const own = new Set(ownHosts.map((host) => host.toLowerCase()));
  return (request) => {
    const host = request.headers.get('host');
    if (host === null || host === '') return undefined;
    const hostname = hostnameOf(host);
    if (isLoopbackHostname(hostname) || own.has(hostname)) return undefined;
    return jsonRpcError(403, -32000, `Forbidden: Host ${host} is not allowed for a server bound to loopback`);
  };
}
