// Pages per second through the knowledge pipeline (extractPage → chunkPage → insertChunks, then
// publishGeneration, as the crawler runs them once a page is fetched), beside its baseline on the same
// database: the same pages' raw HTML inserted as one row each into a plain table. Rounds alternate the
// two, so machine noise hits both alike; extraction and chunking alone (no database) are timed too.
import type { Database } from '../../src/db/connection.ts';
import { insertChunks, insertSource, publishGeneration } from '../../src/handlers/knowledge/knowledge-data.ts';
import { insertWorkspace } from '../../src/handlers/users/workspaces-data.ts';
import type { Ids } from '../../src/deps.ts';
import { createIds } from '../../src/ids.ts';
import { chunkPage } from '../../src/handlers/knowledge/chunk.ts';
import { extractPage } from '../../src/handlers/knowledge/extract.ts';
import type { ExtractedPage } from '../../src/handlers/knowledge/page-blocks.ts';
import { buildPages, type BenchPage } from './knowledge-pages.ts';

export interface IngestOptions {
  pages: number;
  rounds: number;
  progress?: (line: string) => void;
}

export interface IngestResult {
  /** One value per round: pages/s extracted, chunked, indexed and published. */
  pipelinePerSecond: number[];
  /** One value per round: raw HTML rows inserted per second. */
  rawPerSecond: number[];
  /** One value per round, no database: extractPage alone, and extractPage + chunkPage. */
  extractPerSecond: number[];
  extractChunkPerSecond: number[];
  pages: number;
  averageKiB: number;
  chunksPerPage: number;
}

interface Ingest {
  db: Database;
  ids: Ids;
  workspaceId: string;
  pages: BenchPage[];
}

// Not counted (besides one extraction pass over every page): the first pages of the tables.
export const INGEST_WARMUP_PAGES = 10;
const CONTENT_TYPE = 'text/html; charset=utf-8';

export async function measureIngest(db: Database, options: IngestOptions): Promise<IngestResult> {
  const ids = createIds({ now: () => new Date() });
  const workspace = await insertWorkspace(db.sql, ids, { name: 'Bench knowledge ingest', now: new Date() });
  const ingest: Ingest = { db, ids, workspaceId: workspace.id, pages: buildPages(options.pages) };
  const bytes = ingest.pages.reduce((sum, p) => sum + Buffer.byteLength(p.html), 0);
  const result: IngestResult = {
    pipelinePerSecond: [],
    rawPerSecond: [],
    extractPerSecond: [],
    extractChunkPerSecond: [],
    pages: options.pages,
    averageKiB: bytes / options.pages / 1024,
    chunksPerPage: 0,
  };
  // Not a temporary table: on PostgreSQL each insert may take another of the pool's connections.
  await db.sql`create table bench_pages (id bigserial primary key, url text not null, html text not null)`;
  try {
    // The extractor needs a whole pass before the JIT settles (and its HTML libraries load at the first page read,
    // src/load-once.ts); the tables only a few pages.
    await extractAlone(ingest.pages);
    const warmup = { ...ingest, pages: ingest.pages.slice(0, INGEST_WARMUP_PAGES) };
    await runPipeline(warmup);
    await runRaw(warmup);
    let chunks = 0;
    for (let round = 1; round <= options.rounds; round += 1) {
      const raw = async () => result.rawPerSecond.push(await runRaw(ingest));
      const pipeline = async () => {
        const r = await runPipeline(ingest);
        result.pipelinePerSecond.push(r.pagesPerSecond);
        chunks = r.chunks;
      };
      for (const step of round % 2 ? [raw, pipeline] : [pipeline, raw]) await step();
      const alone = await extractAlone(ingest.pages);
      result.extractPerSecond.push(alone.extract);
      result.extractChunkPerSecond.push(alone.extractChunk);
      options.progress?.(
        `knowledge ingest round ${round}/${options.rounds}: ${Math.round(result.pipelinePerSecond.at(-1)!)} pages/s through the pipeline, ${Math.round(result.rawPerSecond.at(-1)!)} raw inserts/s`,
      );
    }
    result.chunksPerPage = chunks / options.pages;
    return result;
  } finally {
    await db.sql`drop table if exists bench_pages`.catch(() => {});
    // The chunks go with their sources, so the search rows' bare query sees only its own data.
    await db.sql`delete from knowledge_sources where workspace_id = ${workspace.id}`.catch(() => {});
  }
}

/** Every page through extract, chunk and index into a new source's next generation, which is then published. */
async function runPipeline(ingest: Ingest): Promise<{ pagesPerSecond: number; chunks: number }> {
  const { db, ids, workspaceId } = ingest;
  const source = await insertSource(db.sql, workspaceId, ids, {
    url: 'https://www.example-saas.test/',
    maxPages: ingest.pages.length,
    includePaths: [],
    excludePaths: [],
    createdBy: null,
    now: new Date(),
  });
  const generation = source.generation + 1;
  let chunks = 0;
  let title: string | null = null;
  const started = performance.now();
  for (const { url, html } of ingest.pages) {
    const page = await extractPage({ url, contentType: CONTENT_TYPE, body: html });
    title ??= page.title;
    const pieces = chunkPage(page);
    await insertChunks(
      db.sql,
      workspaceId,
      ids,
      source.id,
      generation,
      pieces.map((c) => ({
        pageUrl: url,
        pageTitle: page.title,
        headingPath: c.headingPath,
        position: chunks + c.position,
        text: c.text,
      })),
    );
    chunks += pieces.length;
  }
  await db.sql.begin((tx) =>
    publishGeneration(tx, workspaceId, source.id, {
      generation,
      title,
      pagesFetched: ingest.pages.length,
      now: new Date(),
    }),
  );
  return { pagesPerSecond: ingest.pages.length / ((performance.now() - started) / 1000), chunks };
}

/** Every page's raw HTML as one row, one insert statement after another; returns rows/s. */
async function runRaw(ingest: Ingest): Promise<number> {
  const started = performance.now();
  for (const { url, html } of ingest.pages)
    await ingest.db.sql`insert into bench_pages (url, html) values (${url}, ${html})`;
  return ingest.pages.length / ((performance.now() - started) / 1000);
}

async function extractAlone(pages: BenchPage[]): Promise<{ extract: number; extractChunk: number }> {
  const started = performance.now();
  const extracted: ExtractedPage[] = [];
  for (const { url, html } of pages) extracted.push(await extractPage({ url, contentType: CONTENT_TYPE, body: html }));
  const extractedAt = performance.now();
  for (const page of extracted) chunkPage(page);
  const ended = performance.now();
  return {
    extract: pages.length / ((extractedAt - started) / 1000),
    extractChunk: pages.length / ((ended - started) / 1000),
  };
}
