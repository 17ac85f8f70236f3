// Origin validation against DNS rebinding and cross-site use of /mcp: browsers always send Origin, other
// clients do not, so a present Origin must be on the allow-list.

import { jsonRpcError } from './json-rpc.ts';

/**
 * Entries with a scheme (`https://app.example.com`) match that origin exactly; bare hostnames
 * (`localhost`) match any scheme and port, as the SDK's own Origin helpers do.
 */
export function createOriginCheck(allowed: string[]): (request: Request) => Response | undefined {
  const origins = new Set<string>();
  const hostnames = new Set<string>();
  for (const entry of allowed) {
    if (entry.includes('://')) origins.add(new URL(entry).origin);
    else hostnames.add(entry.toLowerCase());
  }
  return (request) => {
    const origin = request.headers.get('origin');
    if (origin === null || origin === '' || origins.has(origin)) return undefined;
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    // `null` and unparseable origins come from opaque contexts (sandboxed frames, file:) and are refused.
    const known = url && url.origin !== 'null' && (origins.has(url.origin) || hostnames.has(url.hostname));
    return known ? undefined : jsonRpcError(403, -32000, `Forbidden: Origin ${origin} is not allowed`);
  };
}
