// Small JSON-RPC response builders shared by the HTTP entry and its fast path, shaped byte for byte as the
// SDK shapes the same answers.

type Id = string | number | null;

const JSON_HEADERS = { 'content-type': 'application/json' };

/** A JSON-RPC error carried by an HTTP status (transport refusals: 403, 405, 413). */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  id: Id = null,
  headers?: Record<string, string>,
): Response {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id });
  return new Response(body, { status, headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS });
}

/** A JSON-RPC result with HTTP 200; `resultJson` is already serialized, so results are not copied twice. */
export function jsonRpcResult(id: string | number, resultJson: string): Response {
  const body = `{"result":${resultJson},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
  return new Response(body, { status: 200, headers: JSON_HEADERS });
}

/**
 * The in-band (HTTP 200) answer to a request whose handler threw, as the SDK's protocol layer builds it:
 * the thrown code when it is an integer (else -32603), its message, and its data.
 */
export function jsonRpcThrown(id: string | number, error: unknown): Response {
  const e = (error ?? {}) as { code?: unknown; message?: string; data?: unknown };
  const thrown = Number.isSafeInteger(e.code) ? (e.code as number) : -32603;
  // -32002 (resource not found) goes on the wire as -32602 on every revision, as the SDK's codecs send it.
  const code = thrown === -32002 ? -32602 : thrown;
  const data = e.data !== undefined ? { data: e.data } : {};
  const body = { jsonrpc: '2.0', id, error: { code, message: e.message ?? 'Internal error', ...data } };
  return new Response(JSON.stringify(body), { status: 200, headers: JSON_HEADERS });
}
