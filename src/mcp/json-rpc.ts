// Small JSON-RPC response builders shared by the HTTP entry and its fast path.

type Id = string | number | null;

const JSON_HEADERS = { 'content-type': 'application/json' };

/** A JSON-RPC error carried by an HTTP status (transport-level refusals: 403, 405, 406, 415, 400). */
export function jsonRpcError(status: number, code: number, message: string, id: Id = null, headers?: Record<string, string>): Response {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id });
  return new Response(body, { status, headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS });
}

/** A JSON-RPC result with HTTP 200; `resultJson` is already serialised so large results are not copied twice. */
export function jsonRpcResult(id: string | number, resultJson: string): Response {
  return new Response(`{"result":${resultJson},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`, { status: 200, headers: JSON_HEADERS });
}
