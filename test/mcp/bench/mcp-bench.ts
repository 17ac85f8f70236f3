// Benchmark: an authenticated read through MCP tools/call (both eras) vs the same REST call, and the tools/list size.
// Run: npx tsx test/mcp/bench/mcp-bench.ts [seconds-per-case]
// The server runs in a child process; besides throughput it reports server CPU per request, which does not depend
// on whether the load generator (sharing the machine) or the server is the bottleneck.

// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { ALICE, toyTools } from '../fixtures/toy-app.ts';
import { toWireTools } from '../../../src/mcp/server-factory.ts';

interface Case {
  server: 'fast' | 'sdk';
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

const seconds = Number(process.argv[2] ?? 5);
const auth = { authorization: `Bearer ${ALICE}` };
const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const post = { ...auth, accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const call = (meta?: object) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'get_lead', arguments: { lead_id: 'lead_1' }, ...(meta && { _meta: meta }) },
  });

const legacy: Omit<Case, 'server'> = {
  path: '/mcp',
  method: 'POST',
  headers: { ...post, 'mcp-protocol-version': '2025-11-25' },
  body: call(),
};
const modern: Omit<Case, 'server'> = {
  path: '/mcp',
  method: 'POST',
  headers: { ...post, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_lead' },
  body: call(envelope),
};
const list = (era: 'legacy' | 'modern'): Omit<Case, 'server'> => {
  const base = era === 'legacy' ? legacy : modern;
  const params = era === 'legacy' ? undefined : { _meta: envelope };
  const headers = era === 'legacy' ? base.headers : { ...base.headers, 'mcp-method': 'tools/list', 'mcp-name': '' };
  return { ...base, headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params }) };
};

const cases: Record<string, Case> = {
  'rest GET': { server: 'fast', path: '/api/v1/leads/lead_1', method: 'GET', headers: auth },
  'call 2025-11-25': { server: 'fast', ...legacy },
  'call 2026-07-28': { server: 'fast', ...modern },
  'call 2025 (SDK)': { server: 'sdk', ...legacy },
  'call 2026 (SDK)': { server: 'sdk', ...modern },
  'list 2025-11-25': { server: 'fast', ...list('legacy') },
  'list 2026-07-28': { server: 'fast', ...list('modern') },
};

async function cpuMicros(child: ChildProcess): Promise<number> {
  child.send('cpu');
  const [message] = (await once(child, 'message')) as [{ cpuMicros: number }];
  return message.cpuMicros;
}

async function load(urls: Record<Case['server'], string>, c: Case, duration: number) {
  const headers = Object.fromEntries(Object.entries(c.headers).filter(([, v]) => v !== ''));
  const result = await autocannon({
    url: urls[c.server] + c.path,
    method: c.method,
    headers,
    body: c.body,
    connections: 16,
    duration,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${c.path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result;
}

async function measure(child: ChildProcess, urls: Record<Case['server'], string>, c: Case) {
  await load(urls, c, 2); // warm-up: JIT for this path, connection pool
  const before = await cpuMicros(child);
  const result = await load(urls, c, seconds);
  const cpu = (await cpuMicros(child)) - before;
  return { rate: result.requests.average as number, cpuPerRequest: cpu / result.requests.total };
}

const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./serve-toy.ts', import.meta.url))], {
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
});
const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
const urls = JSON.parse(chunk.toString()) as Record<Case['server'], string>;
try {
  const results: Record<string, { rate: number; cpuPerRequest: number }> = {};
  for (const [name, c] of Object.entries(cases)) results[name] = await measure(child, urls, c);
  const rest = results['rest GET'];
  for (const [name, r] of Object.entries(results)) {
    const ratios =
      r === rest
        ? ''
        : `  throughput ratio ${(r.rate / rest.rate).toFixed(2)}  cpu ratio ${(rest.cpuPerRequest / r.cpuPerRequest).toFixed(2)}`;
    console.log(
      `${name.padEnd(15)} ${r.rate.toFixed(0).padStart(6)} req/s  ${r.cpuPerRequest.toFixed(0).padStart(4)} µs server CPU/req${ratios}`,
    );
  }
  const list = JSON.stringify({ tools: toWireTools(toyTools) });
  console.log(
    `tools/list ${list.length} bytes, ~${Math.round(list.length / 4)} tokens, ~${Math.round(list.length / 4 / toyTools.length)} per tool`,
  );
} finally {
  child.kill();
}
