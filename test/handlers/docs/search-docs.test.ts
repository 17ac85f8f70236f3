import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { loadDocsCorpus } from '../../../src/handlers/docs/corpus.ts';
import { createDocsIndex } from '../../../src/handlers/docs/docs-index.ts';
import type { DocsPassage } from '../../../src/handlers/docs/docs-passage.ts';
import { githubAnchor } from '../../../src/handlers/docs/markdown-passages.ts';

// The corpus is built from the repository's own files, as the service builds it at start-up.
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const openapi = yaml.load(readFileSync(`${repoRoot}openapi/openapi.yaml`, 'utf8')) as Record<string, unknown>;
const operationIds = new Set(
  Object.values(openapi.paths as Record<string, Record<string, unknown>>).flatMap((item) =>
    Object.values(item).flatMap((op) =>
      op && typeof op === 'object' && 'operationId' in op ? [String(op.operationId)] : [],
    ),
  ),
);

const started = performance.now();
const corpus = loadDocsCorpus(repoRoot, openapi, operationIds);
const index = createDocsIndex(corpus);
const buildMs = performance.now() - started;

/**
 * What counts as an answer: the passage names one of `tools`, or comes from one of `sources` (a
 * prefix of its source, anchor included). `tier: 'top3'` marks a question whose answer is spread over
 * several passages, so any of the first three will do; the rest must be answered by the first.
 */
interface Expected {
  tools?: string[];
  sources?: string[];
  tier?: 'top3';
}

const questions: Array<[string, Expected]> = [
  ['how do I stop a key from working', { tools: ['revoke_api_key'] }],
  [
    'what does a 409 on send_test_email mean',
    { tools: ['send_test_email'], sources: ['docs/errors.md#409-connector_not_connected'] },
  ],
  ['how do I connect gmail', { tools: ['start_connector_oauth'] }],
  ['how do I know when the human has approved the connection', { tools: ['get_connector'] }],
  ['how can I get notified when something changes', { tools: ['create_webhook_endpoint'] }],
  [
    'how do I retry safely without creating duplicates',
    { sources: ['docs/how-the-api-works.md#idempotency-keys', 'docs/errors.md#retrying-safely'] },
  ],
  ['how long do I wait for a long job', { tools: ['get_operation'] }],
  ['invite a teammate', { tools: ['invite_member'] }],
  ['ingest our website', { tools: ['ingest_url_into_knowledge'] }],
  ['search what we ingested', { tools: ['search_knowledge'] }],
  ['how do I log in with my password', { tools: ['login'] }],
  ['create an API key for my agent', { tools: ['create_api_key'] }],
  ['show me all the api keys of the workspace', { tools: ['list_api_keys'] }],
  ['make a colleague an admin', { tools: ['update_member_role'] }],
  ['remove someone from the workspace', { tools: ['remove_member'] }],
  ['accepting the invitation says account_exists, what now', { tools: ['accept_invitation_as_me'] }],
  ['accept an invitation I received', { tools: ['accept_invitation', 'accept_invitation_as_me'] }],
  ['cancel a running job', { tools: ['cancel_operation'] }],
  [
    'why does cancelling an operation return operation_finished',
    { tools: ['cancel_operation'], sources: ['docs/errors.md#409-operation_finished'] },
  ],
  ['see what changed in my workspace', { tools: ['list_events'] }],
  ['my webhook deliveries are failing, where can I see why', { tools: ['list_webhook_deliveries'] }],
  ['send a test event to my webhook endpoint', { tools: ['send_test_webhook'] }],
  ['re-enable a disabled webhook endpoint', { tools: ['update_webhook_endpoint'] }],
  ['delete a webhook endpoint', { tools: ['delete_webhook_endpoint'] }],
  [
    'how do I verify the signature of a webhook delivery',
    { sources: ['docs/operations-and-webhooks.md#verify', 'docs/how-the-api-works.md#webhooks'] },
  ],
  ['send a test email from the connected mailbox', { tools: ['send_test_email'] }],
  ['where did my test email go in sandbox mode', { tools: ['list_sandbox_messages'] }],
  ['reconnect an expired gmail connector', { tools: ['start_connector_oauth'] }],
  ['disconnect our gmail account', { tools: ['revoke_connector'] }],
  ['which mailboxes are connected', { tools: ['list_connectors'] }],
  ['which workspace and role does my key have', { tools: ['get_me'] }],
  ['sign up for an account', { tools: ['signup'] }],
  [
    'what is sandbox mode',
    { sources: ['docs/connectors-and-consent.md#sandbox-mode', 'docs/areas.md#connectors-gmail-through-oauth'] },
  ],
  ['I get 429 too many requests', { sources: ['docs/errors.md#429'] }],
  ['the API answers database_unavailable', { sources: ['docs/errors.md#503'] }],
  ['a request failed with deadlock detected', { sources: ['docs/errors.md#503'] }],
  [
    'url_not_allowed when creating a webhook',
    { tools: ['create_webhook_endpoint'], sources: ['docs/errors.md#422-url_not_allowed'] },
  ],
  ['crawl only the blog pages of our site', { tools: ['ingest_url_into_knowledge'] }],
  ['update the knowledge after our website changed', { tools: ['refresh_knowledge_source'] }],
  ['forget an ingested site', { tools: ['delete_knowledge_source'] }],
  ['see the chunks extracted from a source', { tools: ['list_knowledge_chunks'] }],
  ['list everything we have ingested', { tools: ['list_knowledge_sources'] }],
  [
    'how do I configure Claude Desktop to use the tools',
    {
      sources: [
        'docs/getting-started.md#connect-an-agent-over-mcp',
        'docs/mcp.md#local-the-service-mcp-stdio-launcher',
      ],
    },
  ],
  [
    'can the agent import leads and launch a sequence',
    { sources: ['docs/agent-run.md#step-6-launch-the-sequence-with-the-imported-leads'] },
  ],
  [
    'my token expired and every call gets 401',
    {
      sources: [
        'docs/credentials-and-keys.md#why-a-call-gets-401',
        'docs/errors.md#401',
        'docs/troubleshooting.md#why-does-my-agent-get-401',
      ],
    },
  ],
  ['rotate an api key', { tools: ['create_api_key', 'revoke_api_key'] }],
  [
    'how do I start the server locally',
    { sources: ['docs/getting-started.md#start-the-service', 'README.md#the-two-commands'] },
  ],
  [
    'what happens if the human denies access on the consent page',
    {
      sources: ['docs/connectors-and-consent.md#the-pause', 'docs/areas.md#connectors-gmail-through-oauth'],
      tier: 'top3',
    },
  ],
  [
    'which permissions does the gmail connector ask for',
    {
      sources: [
        'docs/connectors-and-consent.md#connectors-and-consent',
        'docs/areas.md#connectors-gmail-through-oauth',
      ],
      tier: 'top3',
    },
  ],
  ['list long running operations', { tools: ['list_operations'] }],
  [
    'robots.txt blocked the ingestion',
    { sources: ['docs/knowledge.md#what-the-crawler-fetches', 'docs/errors.md#422-robots_disallowed'] },
  ],
  // Once answered with revoke_api_key and with the agent store: the authentication guidance must come first.
  [
    'my API key is rejected',
    { sources: ['docs/troubleshooting.md#my-api-key-is-rejected', 'docs/credentials-and-keys.md#why-a-call-gets-401'] },
  ],
  [
    'why does my agent get 401',
    {
      sources: [
        'docs/troubleshooting.md#why-does-my-agent-get-401',
        'docs/credentials-and-keys.md#why-a-call-gets-401',
        'docs/errors.md#401',
      ],
    },
  ],
];

/**
 * Written after the ranker and the guides had been tuned on the table above, to see how it does on
 * questions it was not shaped by; reported apart. A few general fixes followed (synonyms for pages,
 * pausing and health; a guide section on paging), none aimed at one question.
 */
const laterQuestions: Array<[string, Expected]> = [
  [
    'how do I give my agent access to the platform',
    { tools: ['create_api_key'], sources: ['docs/getting-started.md#connect-an-agent-over-mcp'] },
  ],
  [
    'the human closed the consent page without allowing, what do I do',
    { tools: ['start_connector_oauth', 'get_connector'] },
  ],
  [
    'how do I page through a long list',
    { sources: ['docs/getting-started.md#lists-come-in-pages', 'docs/errors.md#400', 'openapi:list_'] },
  ],
  ['who can revoke a connector', { tools: ['revoke_connector'] }],
  ['change the events a webhook receives', { tools: ['update_webhook_endpoint'] }],
  ['can I get the webhook signing secret again', { tools: ['create_webhook_endpoint'] }],
  ['demote an admin to member', { tools: ['update_member_role'] }],
  [
    'what does idempotency_key_reused mean',
    { sources: ['docs/errors.md#422-idempotency_key_reused', 'docs/how-the-api-works.md#idempotency-keys'] },
  ],
  [
    'how do I tell if the ingestion failed',
    { tools: ['get_operation', 'get_knowledge_source', 'list_knowledge_sources'] },
  ],
  ['limit a crawl to 10 pages', { tools: ['ingest_url_into_knowledge'] }],
  ["find the brand's pricing in our knowledge", { tools: ['search_knowledge'] }],
  [
    'how do I send real emails instead of sandbox',
    {
      sources: [
        'docs/connectors-and-consent.md#sandbox-mode-or-live-mode',
        'docs/areas.md#connectors-gmail-through-oauth',
      ],
    },
  ],
  [
    'which event types exist',
    {
      tools: ['list_events'],
      sources: ['docs/operations-and-webhooks.md#read-what-changed-events', 'docs/how-the-api-works.md#events'],
    },
  ],
  ['is there an endpoint to check the service is healthy', { tools: ['get_health'] }],
  [
    'my agent gets 403 forbidden',
    { sources: ['docs/errors.md#403', 'docs/credentials-and-keys.md#why-a-call-gets-401'] },
  ],
  ['the invitation token expired', { tools: ['invite_member'] }],
  ['stop receiving webhooks for a while', { tools: ['update_webhook_endpoint', 'delete_webhook_endpoint'] }],
  ['look at the mail the sandbox captured', { tools: ['list_sandbox_messages'] }],
  ["what's the difference between a JWT and an API key", { sources: ['docs/credentials-and-keys.md#jwt-or-api-key'] }],
  [
    'run the service on postgres in production',
    {
      sources: [
        'docs/running.md#starting-stopping-and-running-it-in-production',
        'README.md#the-two-commands',
        'docs/getting-started.md#start-the-service',
      ],
    },
  ],
  ['get a fresh consent link', { tools: ['start_connector_oauth'] }],
  ['abort the operation I started by mistake', { tools: ['cancel_operation'] }],
];

const answers = (p: DocsPassage, want: Expected) =>
  (want.tools ?? []).some((t) => p.tools.includes(t)) || (want.sources ?? []).some((s) => p.source.startsWith(s));

/** A question is pending while its expected tools are not in the contract (and it names no source). */
const pending = ([, want]: [string, Expected]) => !want.sources && !(want.tools ?? []).some((t) => operationIds.has(t));

function measure(table: Array<[string, Expected]>) {
  return table
    .filter((q) => !pending(q))
    .map(([question, want]) => {
      const hits = index.search(question, 3);
      return {
        question,
        want,
        hits,
        top1: hits.length > 0 && answers(hits[0], want),
        top3: hits.some((h) => answers(h, want)),
      };
    });
}

function summary(name: string, results: ReturnType<typeof measure>): string {
  const rate = (n: number) => `${n}/${results.length} (${Math.round((100 * n) / Math.max(1, results.length))}%)`;
  return `${name}: top-1 ${rate(results.filter((r) => r.top1).length)}, top-3 ${rate(results.filter((r) => r.top3).length)}`;
}

describe('search_docs ranking', () => {
  const all = [...questions, ...laterQuestions];
  const results = measure(all);

  it('reports its hit rate on the question table', () => {
    const misses = results
      .filter((r) => !r.top1)
      .map((r) => `  ${r.top3 ? 'top-3' : 'MISS '} ${r.question} → ${r.hits.map((h) => h.id).join(', ')}`);
    const skipped = all.filter(pending).map(([q]) => `  pending (tool not in the contract yet): ${q}`);
    const lines = [
      summary('search_docs, all questions', results),
      summary('  tuned-on table', measure(questions)),
      summary('  later questions', measure(laterQuestions)),
    ];
    console.log([...lines, ...misses, ...skipped].join('\n'));
    expect(all.length).toBeGreaterThanOrEqual(40);
  });

  // The floor: an agent acts on the first passage, so nearly nine in ten first answers must be right
  // (85%, below the measured rate, which leaves room for the docs to grow without the test turning
  // flaky); none may fall out of the first three, which a client shows together. Questions marked
  // `tier: 'top3'` are answered over several passages and count only for the second.
  it('answers at least 85% of the first-passage questions with its first passage', () => {
    const strict = results.filter((r) => r.want.tier !== 'top3');
    expect(strict.filter((r) => r.top1).length / strict.length).toBeGreaterThanOrEqual(0.85);
  });

  it('answers a rejected API key and an agent that gets 401 with the authentication guidance first', () => {
    for (const question of ['my API key is rejected', 'why does my agent get 401']) {
      const want = questions.find(([q]) => q === question)![1];
      const [first] = index.search(question, 1);
      expect(answers(first, want), `${question} → ${first.id}`).toBe(true);
    }
  });

  it('answers every question within its first three passages', () => {
    expect(results.filter((r) => !r.top3).map((r) => r.question)).toEqual([]);
  });
});

describe('docs corpus', () => {
  it('builds from the README, the guides and the contract', () => {
    console.log(`docs corpus: ${corpus.length} passages built and indexed in ${buildMs.toFixed(1)} ms`);
    const kinds = new Set(corpus.map((p) => p.source.split(/[#:]/)[0]));
    expect([...kinds]).toEqual(
      expect.arrayContaining(['README.md', 'docs/getting-started.md', 'docs/errors.md', 'openapi']),
    );
  });

  it('gives every document passage the anchor of a heading in its file', () => {
    const anchors = new Map<string, Set<string>>();
    const anchorsOf = (file: string) => {
      const text = readFileSync(`${repoRoot}${file}`, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
      return new Set([...text.matchAll(/^#{1,3} (.+)$/gm)].map((m) => githubAnchor(m[1])));
    };
    for (const p of corpus.filter((c) => !c.source.startsWith('openapi:'))) {
      const [file, anchor] = p.source.split('#');
      if (!anchors.has(file)) anchors.set(file, anchorsOf(file));
      expect(anchor, p.id).toMatch(/^[\p{L}\p{N}_-]+$/u);
      expect(anchors.get(file)?.has(anchor.replace(/-\d+$/, '')) || anchors.get(file)?.has(anchor), p.id).toBe(true);
    }
  });

  it('has a passage for every section the README and the guides link to', () => {
    const sources = new Set(corpus.map((p) => p.source));
    const files = [
      'README.md',
      ...corpus.filter((p) => p.source.startsWith('docs/')).map((p) => p.source.split('#')[0]),
    ];
    const links = [...new Set(files)].flatMap((file) =>
      [...readFileSync(`${repoRoot}${file}`, 'utf8').matchAll(/\]\(([\w-]*\.md)?#([^)]+)\)/g)].map(
        ([, target, anchor]) => `${target ? (file.startsWith('docs/') ? `docs/${target}` : target) : file}#${anchor}`,
      ),
    );
    expect(links.length).toBeGreaterThan(2);
    expect(links.filter((l) => !sources.has(l))).toEqual([]);
  });

  it('makes one passage per operation, naming its own tool first', () => {
    const contract = corpus.filter((p) => p.source.startsWith('openapi:'));
    expect(contract.map((p) => p.tools[0]).sort()).toEqual([...operationIds].sort());
    for (const p of contract) expect(p.source).toBe(`openapi:${p.tools[0]}`);
  });

  it('keeps passages to a readable size', () => {
    const words = corpus.map((p) => p.text.split(/\s+/).length);
    expect(Math.max(...words)).toBeLessThan(400);
  });

  it('lists as tools only operation ids of the contract', () => {
    for (const p of corpus) for (const t of p.tools) expect(operationIds.has(t), `${p.id} names ${t}`).toBe(true);
  });

  it('ranks the same way every time', () => {
    const once = index.search('how do I stop a key from working', 5).map((h) => h.id);
    expect(
      createDocsIndex(corpus)
        .search('how do I stop a key from working', 5)
        .map((h) => h.id),
    ).toEqual(once);
  });
});
