// Idempotency keys over MCP and in the contract: every side-effecting POST declares the header, its tool
// takes it as `idempotency_key`, and a tool call with it behaves as the REST request does.
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolDescriptors } from '../../src/generated/mcp-tools.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { postMcp, rpc, toolText } from '../mcp/fixtures/mcp-post.ts';

type Operation = { operationId: string; parameters?: { $ref?: string }[]; 'x-idempotency-exempt'?: unknown };
type ToolAnswer = {
  result?: { isError?: boolean; content?: { text?: string }[]; structuredContent?: Record<string, unknown> };
};

const contract = yaml.load(readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};
const posts = Object.values(contract.paths).flatMap((item) => (item.post ? [item.post] : []));
const declares = (op: Operation) =>
  (op.parameters ?? []).some((p) => p.$ref === '#/components/parameters/IdempotencyKey');

describe('the contract', () => {
  it.each(posts.map((op) => [op.operationId, op] as const))(
    '%s declares Idempotency-Key or says why it needs none',
    (_id, op) => {
      const exempt = op['x-idempotency-exempt'];
      expect(
        declares(op) !== (typeof exempt === 'string' && exempt.length > 0),
        'exactly one of the parameter and an exemption with a reason',
      ).toBe(true);
    },
  );

  it('gives every tool of an operation declaring the header the argument idempotency_key', () => {
    const declaring = posts.filter(declares).map((op) => op.operationId);
    expect(declaring.length).toBeGreaterThan(0);
    for (const name of declaring) {
      const tool = toolDescriptors.find((d) => d.name === name);
      expect(tool?.binding.args, name).toContainEqual({
        name: 'idempotency_key',
        in: 'header',
        key: 'Idempotency-Key',
      });
      expect((tool?.inputSchema.required as string[] | undefined) ?? []).not.toContain('idempotency_key');
    }
  });
});

let t: TestApp;
let credential: string;
beforeAll(async () => {
  t = await createTestApp();
  credential = (await t.createKey((await t.signup()).token, 'mcp idempotency')).key;
});
afterAll(() => t.close());

async function callTool(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const res = await postMcp(t.app, rpc('tools/call', { name, arguments: args }), {
    'mcp-protocol-version': '2025-11-25',
    authorization: `Bearer ${credential}`,
  });
  return (await res.json()) as ToolAnswer;
}

describe('create_api_key over MCP with idempotency_key', () => {
  it('returns the same key to a retried call and mints it once', async () => {
    const args = { name: 'mcp retried mint', idempotency_key: `mcp-${process.pid}-1` };
    const first = await callTool('create_api_key', args);
    const second = await callTool('create_api_key', args);
    expect(first.result?.isError, toolText(first)).toBeFalsy();
    expect(second.result?.isError, toolText(second)).toBeFalsy();
    expect(second.result?.structuredContent?.id).toBe(first.result?.structuredContent?.id);
    expect(second.result?.structuredContent?.key).toBe(first.result?.structuredContent?.key);
    const [row] = await t.db.sql<
      { n: number }[]
    >`select count(*)::int as n from api_keys where name = 'mcp retried mint'`;
    expect(row.n).toBe(1);
  });

  it('shares the key with REST: a REST retry of a tool call is a replay', async () => {
    const key = `mcp-${process.pid}-2`;
    const tool = await callTool('create_api_key', { name: 'tool then rest', idempotency_key: key });
    const rest = await t.request('/api/v1/api-keys', {
      method: 'POST',
      token: credential,
      json: { name: 'tool then rest' },
      headers: { 'Idempotency-Key': key },
    });
    expect(rest.headers.get('idempotent-replayed')).toBe('true');
    expect(((await rest.json()) as { id: string }).id).toBe(tool.result?.structuredContent?.id);
  });

  it('answers a reused key with another request as a 422 tool error', async () => {
    const key = `mcp-${process.pid}-3`;
    await callTool('create_api_key', { name: 'first use', idempotency_key: key });
    const answer = await callTool('create_api_key', { name: 'second use', idempotency_key: key });
    expect(answer.result?.isError).toBe(true);
    expect(toolText(answer)).toMatch(/^422 /);
    expect(JSON.stringify(answer.result)).toContain('idempotency_key_reused');
  });

  it('names the idempotency_key argument when the key is malformed', async () => {
    const answer = await callTool('create_api_key', { name: 'bad key', idempotency_key: 'k'.repeat(256) });
    expect(answer.result?.isError).toBe(true);
    expect(toolText(answer)).toMatch(/^400 Bad Request: Invalid arguments for create_api_key: `idempotency_key`/);
  });
});
