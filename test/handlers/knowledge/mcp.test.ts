// An agent over MCP ingests a site, waits on the operation, searches what it ingested and asks the
// docs how to do something, with the official SDK client on /mcp.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTestApp, listen, type TestApp } from '../../helpers/app.ts';
import { startSite, type Site } from './site.ts';

let t: TestApp;
let site: Site;
let server: Awaited<ReturnType<typeof listen>>;
let client: Client;

beforeAll(async () => {
  [t, site] = await Promise.all([
    createTestApp({ jobs: 'work', env: { OUTBOUND_ALLOW_PRIVATE: 'true', KNOWLEDGE_CRAWL_DELAY_MS: '0' } }),
    startSite(),
  ]);
  server = await listen(t.app);
  const owner = await t.signup();
  client = new Client({ name: 'knowledge-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${owner.token}` } },
    }),
  );
});
afterAll(async () => {
  await client?.close();
  await server?.close();
  await site?.close();
  await t?.close();
});

const call = async (name: string, args: Record<string, unknown>) => {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: any;
    content: { text: string }[];
  };
  expect(result.isError, result.content[0]?.text).toBeFalsy();
  return result.structuredContent;
};

describe('knowledge over MCP', () => {
  it('ingests a site, waits on the operation, and searches it', async () => {
    let op = await call('ingest_url_into_knowledge', { url: `${site.url}/`, max_pages: 3 });
    expect(op.status).toBe('queued');
    while (!['succeeded', 'failed', 'cancelled'].includes(op.status))
      op = await call('get_operation', { operation_id: op.id, wait_seconds: 20 });
    expect(op.status).toBe('succeeded');
    const source = await call('get_knowledge_source', { source_id: op.resource.id });
    expect(source.status).toBe('ready');
    const hits = await call('search_knowledge', { query: 'reusable launch vehicles', limit: 3 });
    expect(hits.data[0].page_url).toBe(`${site.url}/`);
    expect(hits.data[0].snippet).toContain('**');
  });

  it('answers search_docs with passages that name the tool to use', async () => {
    const answer = await call('search_docs', { question: 'how do I stop a key from working' });
    expect(answer.data[0].tools).toContain('revoke_api_key');
    expect(answer.data[0].source).toBeTruthy();
    const ingest = await call('search_docs', { question: 'how do I add our website to the knowledge base' });
    expect(ingest.data.slice(0, 3).flatMap((p: { tools: string[] }) => p.tools)).toContain('ingest_url_into_knowledge');
  });
});
