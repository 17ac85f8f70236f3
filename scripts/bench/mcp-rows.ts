// Rows of the MCP issue: `tools/call` of a read tool (get_me) against the same REST call, both with
// the same API key, once per protocol era, plus the size of tools/list; and discovery mode's `call_tool`
// against the direct call it wraps, with the tools/list size of each kind of connection. The group is empty (with a
// note) while createApp does not mount /mcp.
import type { BenchCredentials } from './credentials.ts';
import type { RowGroup, Target } from './row-runner.ts';
import type { ServerProcess } from './server-process.ts';

const LEGACY_VERSION = '2025-06-18';
const MODERN_VERSION = '2026-07-28';
const rest = 'REST GET /api/v1/users/me (API key)';
const envelope = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

type Headers = Record<string, string>;

function rpc(method: string, params: Record<string, unknown>, id: number | string = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params });
}

async function post(
  service: ServerProcess,
  headers: Headers,
  body: string,
): Promise<{ status: number; json: unknown; text: string }> {
  const res = await fetch(`${service.url}/mcp`, { method: 'POST', headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

/** A tools/call answer counts only if it is a JSON-RPC result that is not a tool error. */
function checkToolResult(_status: number, body: string): string | undefined {
  const msg = JSON.parse(body) as { result?: { isError?: boolean }; error?: unknown };
  if (!msg.result) return `not a JSON-RPC result`;
  return msg.result.isError ? 'the tool answered an error' : undefined;
}

export async function mcpRows(service: ServerProcess, credentials: BenchCredentials): Promise<RowGroup> {
  const base: Headers = {
    Authorization: `Bearer ${credentials.apiKey}`,
    Accept: 'application/json, text/event-stream',
    'Content-Type': 'application/json',
  };
  const legacyHeaders = { ...base, 'MCP-Protocol-Version': LEGACY_VERSION };
  const modernHeaders = {
    ...base,
    'MCP-Protocol-Version': MODERN_VERSION,
    'Mcp-Method': 'tools/call',
    'Mcp-Name': 'get_me',
  };

  // The 2025 era negotiates with initialize (stateless: every later request stands alone).
  const init = await post(
    service,
    base,
    rpc('initialize', {
      protocolVersion: LEGACY_VERSION,
      capabilities: {},
      clientInfo: { name: 'bench', version: '1' },
    }),
  );
  if (init.status === 404)
    return { targets: [], rows: [], notes: ['MCP rows skipped: createApp does not mount /mcp yet.'] };
  const negotiated = (init.json as { result?: { protocolVersion?: string } } | undefined)?.result?.protocolVersion;
  if (negotiated !== LEGACY_VERSION)
    throw new Error(`MCP initialize did not negotiate ${LEGACY_VERSION}: ${init.status} ${init.text.slice(0, 300)}`);
  await post(service, legacyHeaders, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));

  const listed = async (query: string) => {
    const answer = await fetch(`${service.url}/mcp${query}`, {
      method: 'POST',
      headers: legacyHeaders,
      body: rpc('tools/list', {}),
    });
    const json = (await answer.json()) as { result?: { tools?: unknown[] } };
    const tools = json.result?.tools ?? [];
    return { tools, bytes: Buffer.byteLength(JSON.stringify({ tools })) };
  };
  const { tools, bytes: listBytes } = await listed('');
  const selections = await Promise.all(
    ['?toolsets=outreach', '?readonly=true', '?tools=discover'].map(async (q) => ({ q, ...(await listed(q)) })),
  );
  const direct = `MCP tools/call get_me (${MODERN_VERSION})`;
  const throughDiscovery = `MCP call_tool get_me, /mcp?tools=discover (${MODERN_VERSION})`;

  const targets: Target[] = [
    {
      name: rest,
      server: service,
      request: { method: 'GET', path: '/api/v1/users/me', headers: { Authorization: base.Authorization } },
    },
    {
      name: `MCP tools/call get_me (${LEGACY_VERSION})`,
      server: service,
      request: {
        method: 'POST',
        path: '/mcp',
        headers: legacyHeaders,
        body: rpc('tools/call', { name: 'get_me', arguments: {} }),
      },
      check: checkToolResult,
    },
    {
      name: direct,
      server: service,
      request: {
        method: 'POST',
        path: '/mcp',
        headers: modernHeaders,
        body: rpc('tools/call', { name: 'get_me', arguments: {}, _meta: envelope }),
      },
      check: checkToolResult,
    },
    {
      name: throughDiscovery,
      server: service,
      request: {
        method: 'POST',
        path: '/mcp?tools=discover',
        headers: { ...modernHeaders, 'Mcp-Name': 'call_tool' },
        body: rpc('tools/call', { name: 'call_tool', arguments: { name: 'get_me', arguments: {} }, _meta: envelope }),
      },
      check: checkToolResult,
    },
  ];
  return {
    targets,
    rows: [
      ...targets
        .slice(1, 3)
        .map((t) => ({ label: `${t.name} / REST`, a: t.name, b: rest, goal: { op: '>=' as const, value: 0.9 } })),
      {
        label: `${throughDiscovery} / ${direct}`,
        a: throughDiscovery,
        b: direct,
        goal: { op: '>=' as const, value: 0.9 },
      },
    ],
    notes: [
      `MCP rows: POST /mcp \`tools/call\` of get_me with the API key — ${LEGACY_VERSION} (after one initialize; stateless, so every ` +
        `call stands alone) and ${MODERN_VERSION} (the _meta envelope plus Mcp-Method/Mcp-Name headers) — against REST ` +
        `GET /api/v1/users/me with the same key; each answer is checked to be a JSON-RPC result that is not a tool error.`,
      `tools/list (${LEGACY_VERSION}): ${tools.length} tools, ${listBytes} bytes, ~${Math.round(listBytes / 4)} tokens (bytes/4), ` +
        `~${tools.length ? Math.round(listBytes / 4 / tools.length) : 0} tokens per tool (goal ≤ 300).`,
      `tools/list by connection: ${selections.map((s) => `${s.q} ${s.tools.length} tools ~${Math.round(s.bytes / 4)} tokens`).join('; ')}.`,
    ],
  };
}
