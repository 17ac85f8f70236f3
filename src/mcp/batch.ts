// JSON-RPC batches on POST /mcp. Only the 2025-03-26 revision has them (2025-06-18 removed batching), and
// a stateless server that assumes 2025-03-26 when MCP-Protocol-Version is absent must do the same here.
// A batch whose request ids repeat is refused before any of it runs: the SDK pairs answers with requests by
// id, so two requests with one id would both run (two keys minted, say) and one answer would be lost.

import { jsonRpcError } from './json-rpc.ts';

const BATCHING_VERSION = '2025-03-26';

function idKey(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || !('id' in message) || !('method' in message)) return undefined;
  const { id } = message as { id: unknown };
  // JSON-RPC ids are strings or numbers, and 1 and "1" are different ids.
  return typeof id === 'string' || typeof id === 'number' ? `${typeof id}:${id}` : undefined;
}

function invalidRequest(message: string): Response {
  return jsonRpcError(400, -32600, `Invalid Request: ${message}`);
}

/** The refusal for a batch this server must not run, or undefined to serve it. */
export function refuseBatch(request: Request, batch: unknown[]): Response | undefined {
  const version = request.headers.get('mcp-protocol-version');
  if (version !== null && version !== BATCHING_VERSION) {
    return invalidRequest(
      `JSON-RPC batches exist only in protocol version ${BATCHING_VERSION}, not in ${version}; send one message per request`,
    );
  }
  const seen = new Set<string>();
  for (const message of batch) {
    const key = idKey(message);
    if (key === undefined) continue;
    if (seen.has(key)) {
      const { id } = message as { id: string | number };
      return invalidRequest(`duplicate id ${JSON.stringify(id)} in batch; every request of a batch needs its own id`);
    }
    seen.add(key);
  }
  return undefined;
}
