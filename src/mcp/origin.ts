// Origin validation against DNS rebinding and cross-site use of /mcp: a browser always sends Origin, other
// clients do not, so a present Origin must be on the allow-list.

import { jsonRpcError } from './json-rpc.ts';

export function createOriginCheck(allowed: string[]): (request: Request) => Response | undefined {
  const origins = new Set<string>();
  const hostnames = new Set<string>();
  for (const entry of allowed) {
    if (entry.includes('://')) origins.add(new URL(entry).origin);
    else hostnames.add(entry.toLowerCase());
  }
  return (request) => {
    const origin = request.headers.get('origin');
    if (origin === null || origin === '') return undefined;
    if (origins.has(origin)) return undefined;
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    // `null` and other unparseable origins come from opaque contexts (sandboxed frames, file:) and are refused.
    if (url && url.origin !== 'null' && (origins.has(url.origin) || hostnames.has(url.hostname))) return undefined;
    return jsonRpcError(403, -32000, `Forbidden: Origin ${origin} is not allowed`);
  };
}
