import { describe, expect, it } from 'vitest';
import { buildDocsCorpus } from '../../../src/handlers/docs/corpus.ts';
import { toolsMentioned } from '../../../src/handlers/docs/docs-passage.ts';
import { githubAnchor } from '../../../src/handlers/docs/markdown-passages.ts';

const tools = new Set(['revoke_api_key', 'login', 'get_operation', 'delete_thing']);

describe('githubAnchor', () => {
  const cases: Array<[string, { given: string; want: string }]> = [
    ['drops punctuation', { given: 'Connectors: Gmail through OAuth', want: 'connectors-gmail-through-oauth' }],
    [
      'drops backticks and dots',
      { given: 'The tool manifest (`mcp-tools.yaml`)', want: 'the-tool-manifest-mcp-toolsyaml' },
    ],
    [
      'keeps one hyphen per space around a dash',
      { given: 'service-mcp — API and agent tool server', want: 'service-mcp--api-and-agent-tool-server' },
    ],
    ['keeps underscores', { given: '409 connector_not_connected', want: '409-connector_not_connected' }],
    ['keeps a link text only', { given: 'See [the pause](x.md#p)', want: 'see-the-pause' }],
    ['drops apostrophes', { given: "Read a source's chunks", want: 'read-a-sources-chunks' }],
  ];
  it.each(cases)('%s', (_, { given, want }) => expect(githubAnchor(given)).toBe(want));
});

describe('toolsMentioned', () => {
  const cases: Array<[string, { given: string; want: string[] }]> = [
    [
      'finds backticked names in order',
      { given: 'Call `get_operation`, then `revoke_api_key`.', want: ['get_operation', 'revoke_api_key'] },
    ],
    ['finds a name leading a backticked call', { given: '`revoke_api_key {key_id}`', want: ['revoke_api_key'] }],
    ['finds snake_case names outside backticks', { given: 'follow it with get_operation', want: ['get_operation'] }],
    ['needs backticks for a one-word name', { given: 'log in with login, or `login`', want: ['login'] }],
    ['skips a dotted field', { given: 'the `login.access_token` field', want: [] }],
    ['skips unknown names', { given: '`list_things` and `wait_seconds`', want: [] }],
    ['names each tool once', { given: '`login` then `login`', want: ['login'] }],
  ];
  it.each(cases)('%s', (_, { given, want }) => expect(toolsMentioned(given, tools)).toEqual(want));
});

const corpusOf = (markdown: string, openapi: Record<string, unknown> = {}) =>
  buildDocsCorpus({
    readme: markdown,
    guides: [{ path: 'docs/guide.md', text: '# Guide\n\n## Revoke\n\nUse `revoke_api_key`.' }],
    openapi,
    toolNames: tools,
  });

describe('buildDocsCorpus: documents', () => {
  const readme = [
    '# Service',
    '',
    'What it is.',
    '',
    '## Keys',
    '',
    'Revoke with `revoke_api_key`.',
    '',
    '```sh',
    '# not a heading',
    '```',
    '',
    '### Rotation',
    '',
    'Mint, then revoke.',
    '',
    '## Keys',
    '',
    'Again.',
  ].join('\n');

  it('cuts one passage per section, with its heading path and anchor', () => {
    const passages = corpusOf(readme).filter((p) => p.source.startsWith('README.md'));
    expect(passages.map((p) => [p.source, p.heading, p.title])).toEqual([
      ['README.md#service', null, 'Service'],
      ['README.md#keys', 'Keys', 'Service'],
      ['README.md#rotation', 'Keys › Rotation', 'Service'],
      ['README.md#keys-1', 'Keys', 'Service'],
    ]);
    expect(passages[1].text).toContain('# not a heading');
    expect(passages[1].tools).toEqual(['revoke_api_key']);
  });

  it('reads the guides under their own path', () => {
    const guide = corpusOf(readme).filter((p) => p.source.startsWith('docs/'));
    expect(guide.map((p) => [p.id, p.title, p.tools])).toEqual([['docs/guide.md#revoke', 'Guide', ['revoke_api_key']]]);
  });

  it('splits a long section at paragraphs, each part keeping the section anchor', () => {
    const paragraph = (n: number) => `Paragraph ${n} ${'word '.repeat(90).trim()}.`;
    const long = ['# T', '', '## Long', '', ...[1, 2, 3, 4, 5, 6].flatMap((n) => [paragraph(n), ''])].join('\n');
    const parts = corpusOf(long).filter((p) => p.source === 'README.md#long');
    expect(parts.map((p) => p.id)).toEqual(['README.md#long', 'README.md#long~2', 'README.md#long~3']);
    for (const p of parts) expect(p.text.split(/\s+/).length).toBeLessThanOrEqual(250);
    expect(parts.map((p) => p.text).join('\n\n')).toBe([1, 2, 3, 4, 5, 6].map(paragraph).join('\n\n'));
  });

  it('splits a long list at its items and a long table at its rows, repeating the header', () => {
    const items = Array.from({ length: 12 }, (_, i) => `- item ${i} ${'word '.repeat(30).trim()}`);
    const rows = Array.from({ length: 30 }, (_, i) => `| v${i} | ${'word '.repeat(15).trim()} |`);
    const text = [
      '# T',
      '',
      '## List',
      '',
      ...items,
      '',
      '## Table',
      '',
      '| name | meaning |',
      '|---|---|',
      ...rows,
    ].join('\n');
    const passages = corpusOf(text);
    const list = passages.filter((p) => p.source === 'README.md#list');
    const table = passages.filter((p) => p.source === 'README.md#table');
    expect(list.length).toBeGreaterThan(1);
    expect(list.every((p) => p.text.startsWith('- item'))).toBe(true);
    expect(table.length).toBeGreaterThan(1);
    expect(table.every((p) => p.text.startsWith('| name | meaning |\n|---|---|'))).toBe(true);
  });
});

describe('buildDocsCorpus: the contract', () => {
  const openapi = {
    paths: {
      '/keys/{key_id}': {
        parameters: [{ $ref: '#/components/parameters/KeyId' }],
        delete: {
          operationId: 'revoke_api_key',
          summary: 'Revoke an API key',
          description: 'Admin-only. Then follow get_operation.',
          security: [{ bearer: ['api_keys:write'] }],
          parameters: [
            { name: 'Idempotency-Key', in: 'header', description: 'Retry key.', schema: { type: 'string' } },
          ],
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Body' } } } },
          responses: {
            '200': { description: 'The revoked key.' },
            '404': { $ref: '#/components/responses/NotFound' },
            '409': { description: 'Already gone.' },
          },
        },
      },
    },
    components: {
      parameters: {
        KeyId: { name: 'key_id', in: 'path', required: true, description: "The key's id.", schema: { type: 'string' } },
      },
      responses: { NotFound: { description: 'No such key in your workspace.' } },
      schemas: {
        Body: {
          type: 'object',
          required: ['reason'],
          properties: { reason: { type: 'string', enum: ['lost', 'leaked'], description: 'Why.' } },
        },
      },
    },
  };

  it('makes one passage per operation, naming its tool first', () => {
    const [passage] = corpusOf('# T', openapi).filter((p) => p.source.startsWith('openapi:'));
    expect(passage).toMatchObject({
      id: 'openapi:revoke_api_key',
      source: 'openapi:revoke_api_key',
      title: 'Revoke an API key',
      heading: 'DELETE /keys/{key_id}',
    });
    expect(passage.tools).toEqual(['revoke_api_key', 'get_operation']);
  });

  it('says so when the operation is not an MCP tool, still naming it first', () => {
    const [passage] = buildDocsCorpus({ readme: '# T', guides: [], openapi, toolNames: new Set() });
    expect(passage.text).toMatch(/^Operation \(not an MCP tool\) `revoke_api_key`/);
    expect(passage.tools).toEqual(['revoke_api_key']);
  });

  it('lists its arguments, its scope and its documented errors, references followed', () => {
    const [passage] = corpusOf('# T', openapi).filter((p) => p.source.startsWith('openapi:'));
    expect(passage.text).toContain('Scope: api_keys:write.');
    expect(passage.text).toContain("- `key_id` (path, required, string): The key's id.");
    expect(passage.text).toContain(
      '- `Idempotency-Key` (header, optional, string; tool argument `idempotency_key`): Retry key.',
    );
    expect(passage.text).toContain('- `reason` (body, required, one of lost, leaked): Why.');
    expect(passage.text).toContain('Answers 200: The revoked key.');
    expect(passage.text).toContain('- 404 Not Found: No such key in your workspace.');
    expect(passage.text).toContain('- 409 Conflict: Already gone.');
  });
});
