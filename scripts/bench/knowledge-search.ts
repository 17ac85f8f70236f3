// search_knowledge latency in a workspace holding many chunks, sample by sample beside the bare SQL
// full-text query that returns the same answer (match, rank, top 10, ts_headline of those 10), beside the
// same query without the snippets, and beside the full HTTP GET /api/v1/knowledge/search on the
// real service (createServices + createApp on 127.0.0.1, node:http with one kept-alive connection from this
// process: the lean client, as postgres.js is for the SQL; fetch's own work costs about 0.35 ms of CPU a request). The chunks go in
// through insertChunks in batches, under sources published as the crawler does; the queries
// (knowledge-text.ts) are cycled, and each sample runs the three calls in a rotating order.
import { Agent, request } from 'node:http';
import { loadConfig } from '../../src/config.ts';
import { createApp } from '../../src/app.ts';
import type { Database } from '../../src/db/connection.ts';
import {
  insertChunks,
  insertSource,
  publishGeneration,
  type NewChunk,
} from '../../src/handlers/knowledge/knowledge-data.ts';
import { searchChunks, SNIPPET_OPTIONS, type SearchHit } from '../../src/handlers/knowledge/knowledge-chunks-data.ts';
import type { Ids } from '../../src/deps.ts';
import { createServices } from '../../src/services.ts';
import { createCredentials } from './credentials.ts';
import { createRandom, heading, paragraph, QUERIES, TOPICS, type Random } from './knowledge-text.ts';
import { serveLocal, type LocalServer } from './serve-local.ts';

export interface SearchOptions {
  chunks: number;
  /** Timed samples (one query each, cycled), after `warmup` thrown away. */
  samples: number;
  warmup: number;
  logLevel: string;
  progress?: (line: string) => void;
}

export interface SearchResult {
  /** Milliseconds, one per sample: searchChunks, what the search_knowledge operation runs. */
  searchMs: number[];
  /** Milliseconds, one per sample: the bare full-text query with the operation's snippets (BARE_QUERY). */
  bareMs: number[];
  /** Milliseconds, one per sample: the same without snippets (BARE_QUERY_NO_SNIPPETS), for information. */
  bareNoSnippetMs: number[];
  /** Milliseconds, one per sample: GET /api/v1/knowledge/search over HTTP, answer read. */
  httpMs: number[];
  /** Per sample, the index in QUERIES of the query it ran. */
  queryIndex: number[];
  /** Chunks each query of QUERIES matches. */
  matches: number[];
  chunks: number;
  sources: number;
  /** Bulk load, chunks inserted per second (for information). */
  fillPerSecond: number;
}

// The forms PostgreSQL's documentation gives (12.3.3 Ranking Search Results, 12.3.4 Highlighting Results): the
// tsquery computed once, in FROM; the best 10 ranked in a subquery, and only they highlighted, with the options
// search_knowledge uses. It answers what the operation answers (hit, source, page, headings, rank, snippet), so
// it is the baseline; the query without the snippets is measured beside it for information.
export const BARE_QUERY_NO_SNIPPETS = `select c.id from knowledge_chunks c, websearch_to_tsquery('english', $1) q where c.search @@ q order by ts_rank_cd(c.search, q) desc limit 10`;
export const BARE_QUERY = `select id, source_id, page_url, page_title, heading_path, rank, ts_headline('english', text, q, '${SNIPPET_OPTIONS.replaceAll("'", "''")}') as snippet from (select c.id, c.source_id, c.page_url, c.page_title, c.heading_path, c.text, q, ts_rank_cd(c.search, q) as rank from knowledge_chunks c, websearch_to_tsquery('english', $1) q where c.search @@ q order by rank desc limit 10) best order by rank desc`;
export const FILL_BATCH = 250;
export const CHUNKS_PER_SOURCE = 500;
const LIMIT = 10;

interface Caller {
  db: Database;
  server: LocalServer;
  agent: Agent;
  token: string;
  workspaceId: string;
}

export async function measureSearch(db: Database, options: SearchOptions): Promise<SearchResult> {
  const config = loadConfig({
    LOG_LEVEL: options.logLevel,
    RATE_LIMIT_PER_CREDENTIAL: '1000000000',
    RATE_LIMIT_PER_ADDRESS: '1000000000',
  });
  const services = await createServices({
    db,
    config,
    argon2Params: { memoryCost: 1024, timeCost: 1, parallelism: 1, outputLen: 32 },
  });
  let server: LocalServer | undefined;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    server = await serveLocal(createApp(services.deps));
    const credentials = await createCredentials(server.url);
    const caller: Caller = { db, server, agent, token: credentials.token, workspaceId: credentials.workspaceId };
    options.progress?.(`knowledge search: filling one workspace with ${options.chunks} chunks`);
    const fill = await fillWorkspace(db, services.deps.ids, caller.workspaceId, options.chunks);
    // Autovacuum would have analysed a table this size long before anyone searched it.
    await db.sql`analyze knowledge_chunks`;
    await db.sql`analyze knowledge_sources`;
    const matches = await checkQueries(caller);
    options.progress?.(`knowledge search: ${options.samples} samples of each after ${options.warmup} thrown away`);
    const result: SearchResult = {
      searchMs: [],
      bareMs: [],
      bareNoSnippetMs: [],
      httpMs: [],
      queryIndex: [],
      matches,
      chunks: options.chunks,
      sources: fill.sources,
      fillPerSecond: fill.perSecond,
    };
    for (let i = 0; i < options.warmup + options.samples; i += 1) {
      const sample = await takeSample(caller, QUERIES[i % QUERIES.length], i);
      if (i < options.warmup) continue;
      result.queryIndex.push(i % QUERIES.length);
      result.searchMs.push(sample.search);
      result.bareMs.push(sample.bare);
      result.bareNoSnippetMs.push(sample.bareNoSnippets);
      result.httpMs.push(sample.http);
    }
    return result;
  } finally {
    agent.destroy();
    if (server) await server.close();
    await services.close();
  }
}

async function takeSample(
  caller: Caller,
  query: string,
  i: number,
): Promise<{ search: number; bare: number; bareNoSnippets: number; http: number }> {
  const timings = { search: 0, bare: 0, bareNoSnippets: 0, http: 0 };
  const calls: Array<[keyof typeof timings, () => Promise<unknown>]> = [
    ['search', () => searchChunks(caller.db.sql, caller.workspaceId, { query, sourceIds: [], limit: LIMIT })],
    ['bare', () => bareSearch(caller.db, query)],
    ['bareNoSnippets', () => caller.db.sql.unsafe(BARE_QUERY_NO_SNIPPETS, [query], { prepare: true })],
    ['http', () => httpSearch(caller, query)],
  ];
  // Rotating the order, so none of the four always runs first (colder) or last.
  for (let k = 0; k < calls.length; k += 1) {
    const [name, call] = calls[(i + k) % calls.length];
    const started = performance.now();
    await call();
    timings[name] = performance.now() - started;
  }
  return timings;
}

function bareSearch(db: Database, query: string): Promise<SearchHit[]> {
  return db.sql.unsafe<SearchHit[]>(BARE_QUERY, [query], { prepare: true });
}

async function httpSearch(caller: Caller, query: string): Promise<{ data: unknown[] }> {
  const path = `/api/v1/knowledge/search?query=${encodeURIComponent(query)}`;
  const res = await get(caller.agent, caller.server.url + path, `Bearer ${caller.token}`);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text.slice(0, 300)}`);
  return JSON.parse(res.text) as { data: unknown[] };
}

function get(agent: Agent, url: string, authorization: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { Authorization: authorization } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Each query's match count; fails unless the three calls return the same number of hits, and the bare query the
 * same snippet as searchChunks for every hit both return (equal ranks may order, and so cut, differently).
 */
async function checkQueries(caller: Caller): Promise<number[]> {
  const matches: number[] = [];
  for (const query of QUERIES) {
    const [{ n }] = await caller.db.sql<
      Array<{ n: number }>
    >`select count(*)::int as n from knowledge_chunks where search @@ websearch_to_tsquery('english', ${query})`;
    const hits = await searchChunks(caller.db.sql, caller.workspaceId, { query, sourceIds: [], limit: LIMIT });
    const bare = await bareSearch(caller.db, query);
    const http = await httpSearch(caller, query);
    const want = Math.min(n, LIMIT);
    if (hits.length !== want || bare.length !== want || http.data.length !== want) {
      throw new Error(
        `query "${query}" matches ${n} chunks, but searchChunks returned ${hits.length}, the bare query ${bare.length} and HTTP ${http.data.length} (expected ${want})`,
      );
    }
    const snippets = new Map(hits.map((h) => [h.id, h.snippet]));
    const differing = bare.filter((h) => snippets.has(h.id) && snippets.get(h.id) !== h.snippet);
    if (differing.length) throw new Error(`query "${query}": the bare query's snippet of ${differing[0].id} differs`);
    matches.push(n);
  }
  return matches;
}

/** `count` chunks in sources of CHUNKS_PER_SOURCE, pages of 6–14 chunks on one topic each, in batches of FILL_BATCH. */
export async function fillWorkspace(
  db: Database,
  ids: Ids,
  workspaceId: string,
  count: number,
): Promise<{ sources: number; perSecond: number }> {
  const r = createRandom(7);
  const started = performance.now();
  let sources = 0;
  for (let done = 0; done < count; sources += 1) {
    const size = Math.min(CHUNKS_PER_SOURCE, count - done);
    const url = `https://site-${sources}.example.test/`;
    const source = await insertSource(db.sql, workspaceId, ids, {
      url,
      maxPages: 50,
      includePaths: [],
      excludePaths: [],
      createdBy: null,
      now: new Date(),
    });
    const generation = source.generation + 1;
    const chunks = sourceChunks(r, url, size);
    for (let at = 0; at < chunks.length; at += FILL_BATCH)
      await insertChunks(db.sql, workspaceId, ids, source.id, generation, chunks.slice(at, at + FILL_BATCH));
    await db.sql.begin((tx) =>
      publishGeneration(tx, workspaceId, source.id, {
        generation,
        title: chunks[0].pageTitle,
        pagesFetched: 50,
        now: new Date(),
      }),
    );
    done += size;
  }
  return { sources, perSecond: count / ((performance.now() - started) / 1000) };
}

function sourceChunks(r: Random, siteUrl: string, count: number): NewChunk[] {
  const chunks: NewChunk[] = [];
  for (let page = 0; chunks.length < count; page += 1) {
    const topic = r.pick(TOPICS);
    const pageTitle = heading(r, topic);
    const perPage = Math.min(r.int(6, 14), count - chunks.length);
    for (let position = 0; position < perPage; position += 1) {
      const section = heading(r, topic);
      const target = r.int(400, 2400);
      let text = `## ${section}`;
      while (text.length < target) text += `\n\n${paragraph(r, topic)}`;
      chunks.push({ pageUrl: `${siteUrl}page-${page}`, pageTitle, headingPath: [pageTitle, section], position, text });
    }
  }
  return chunks;
}
