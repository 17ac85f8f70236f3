// Rows of the knowledge base, measured in this process after the long-work rows, on embedded PGlite
// always and on PostgreSQL when DATABASE_URL is set: pages per second through extraction, chunking
// and indexing against raw page inserts per second (knowledge-ingest.ts), and search_knowledge latency
// with many chunks in the workspace against a bare SQL full-text query on the same data
// (knowledge-search.ts), with the full HTTP search beside it. Each database is a fresh one
// (bench-database.ts) shared by both measurements, and each ratio's two sides come from the same
// database in the same run.
import { migrate } from '../../src/db/migrate.ts';
import { openBenchDatabase } from './bench-database.ts';
import { measureIngest, type IngestResult } from './knowledge-ingest.ts';
import { measureSearch, type SearchResult } from './knowledge-search.ts';
import { QUERIES } from './knowledge-text.ts';
import { meets, type Goal, type RowResult } from './row-runner.ts';
import { median, quantile } from './stats.ts';

export interface KnowledgeSettings {
  /** Pages per round through the pipeline (and raw inserts per round of the baseline). */
  pages: number;
  pageRounds: number;
  /** Chunks in the searched workspace. */
  chunks: number;
  /** Search samples of each kind, after `warmupSamples` thrown away. */
  samples: number;
  warmupSamples: number;
  logLevel: string;
  /** knowledge-main.ts: leave out the ingest row, or PGlite. */
  skipIngest?: boolean;
  skipPglite?: boolean;
}

export interface KnowledgeResult {
  rows: RowResult[];
  notes: string[];
  failed: boolean;
}

export const knowledgeSettings = (quick: boolean, logLevel: string): KnowledgeSettings =>
  quick
    ? { pages: 60, pageRounds: 2, chunks: 2000, samples: 100, warmupSamples: QUERIES.length, logLevel }
    : { pages: 200, pageRounds: 5, chunks: 10_000, samples: 400, warmupSamples: QUERIES.length, logLevel };

const labels = {
  ingest: (db: string) => `pages/s through extract + chunk + index ÷ raw page inserts/s (${db})`,
  http: (db: string, chunks: number) =>
    `\`search_knowledge\` over HTTP (GET /api/v1/knowledge/search, ${chunks.toLocaleString('en')} chunks), searches/s ÷ bare SQL full-text query with its snippets/s (${db})`,
  httpNoSnippets: (db: string, chunks: number) =>
    `\`search_knowledge\` over HTTP (${chunks.toLocaleString('en')} chunks), searches/s ÷ bare SQL full-text query without snippets/s (${db}, for information)`,
  search: (db: string, chunks: number) =>
    `\`search_knowledge\` SQL alone (searchChunks, ${chunks.toLocaleString('en')} chunks), searches/s ÷ bare SQL full-text query with its snippets/s (${db}, for information)`,
};

/** Issue 32: the whole operation over HTTP serves at least 0.8 of the bare query that answers the same (snippets included). */
const SEARCH_GOAL: Goal = { op: '>=', value: 0.8 };

export async function knowledgeRows(
  settings: KnowledgeSettings,
  databaseUrl: string | undefined,
  progress: (line: string) => void,
): Promise<KnowledgeResult> {
  const result: KnowledgeResult = { rows: [], notes: [], failed: false };
  const databases: Array<[string, string | undefined]> = [
    ...(settings.skipPglite ? [] : [['PGlite', undefined] as [string, undefined]]),
    ...(databaseUrl ? [['PostgreSQL', databaseUrl] as [string, string]] : []),
  ];
  const allLabels = (name: string) => [
    ...(settings.skipIngest ? [] : [labels.ingest(name)]),
    labels.http(name, settings.chunks),
    labels.httpNoSnippets(name, settings.chunks),
    labels.search(name, settings.chunks),
  ];
  for (const [name, url] of databases) {
    try {
      const measured = await measureOn(name, url, settings, progress);
      result.rows.push(...measured.rows);
      result.notes.push(...measured.notes);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      result.failed = true;
      result.rows.push(...allLabels(name).map((label) => missing(label, 'failed (see notes)')));
      result.notes.push(`Knowledge rows on ${name} failed: ${message}`);
    }
  }
  if (!databaseUrl)
    result.rows.push(...allLabels('PostgreSQL').map((label) => missing(label, 'skipped: no DATABASE_URL')));
  return result;
}

async function measureOn(
  name: string,
  databaseUrl: string | undefined,
  settings: KnowledgeSettings,
  progress: (line: string) => void,
) {
  const db = await openBenchDatabase(databaseUrl);
  try {
    await migrate(db.sql);
    // Search first, so its workspace holds exactly its chunks; the ingest then writes beside them.
    const search = await measureSearch(db, {
      chunks: settings.chunks,
      samples: settings.samples,
      warmup: settings.warmupSamples,
      logLevel: settings.logLevel,
      progress: (line) => progress(`${line} (${name})`),
    });
    if (settings.skipIngest) return { rows: searchRows(name, settings, search), notes: [searchNote(name, search)] };
    progress(
      `knowledge ingest on ${name}: ${settings.pageRounds} rounds of ${settings.pages} pages through the pipeline and ${settings.pages} raw inserts`,
    );
    const ingest = await measureIngest(db, { pages: settings.pages, rounds: settings.pageRounds, progress });
    const rows = [ingestRow(labels.ingest(name), ingest), ...searchRows(name, settings, search)];
    return { rows, notes: [ingestNote(name, ingest), searchNote(name, search)] };
  } finally {
    await db.close();
  }
}

function ingestRow(label: string, r: IngestResult): RowResult {
  const perRound = r.pipelinePerSecond.map((value, i) => value / r.rawPerSecond[i]);
  return {
    label,
    a: `${Math.round(median(r.pipelinePerSecond))} pages/s`,
    b: `${Math.round(median(r.rawPerSecond))} inserts/s`,
    ratio: median(r.pipelinePerSecond) / median(r.rawPerSecond),
    spread: [quantile(perRound, 0.25), quantile(perRound, 0.75)],
  };
}

const searchRows = (name: string, settings: KnowledgeSettings, s: SearchResult): RowResult[] => [
  rateRow(labels.http(name, settings.chunks), s.httpMs, s.bareMs, SEARCH_GOAL),
  rateRow(labels.httpNoSnippets(name, settings.chunks), s.httpMs, s.bareNoSnippetMs),
  rateRow(labels.search(name, settings.chunks), s.searchMs, s.bareMs),
];

/** Searches per second of A over B, from per-sample milliseconds: the ratio of the medians, B ÷ A. */
function rateRow(label: string, a: number[], b: number[], goal?: Goal): RowResult {
  const perSample = a.map((value, i) => b[i] / value);
  const ratio = median(b) / median(a);
  return {
    label,
    a: `${ms(median(a))} (p95 ${ms(quantile(a, 0.95))})`,
    b: `${ms(median(b))} (p95 ${ms(quantile(b, 0.95))})`,
    ratio,
    spread: [quantile(perSample, 0.25), quantile(perSample, 0.75)],
    goal,
    met: meets(ratio, goal),
  };
}

const ingestNote = (name: string, i: IngestResult): string =>
  `${name} knowledge ingest: ${i.pages} pages (average ${i.averageKiB.toFixed(1)} KiB of HTML, ${i.chunksPerPage.toFixed(1)} chunks each); per round ${list(i.pipelinePerSecond)} pages/s through the pipeline against ${list(i.rawPerSecond)} raw inserts/s; without the database, extractPage alone ${list(i.extractPerSecond)} pages/s, extractPage + chunkPage ${list(i.extractChunkPerSecond)} pages/s.`;

function searchNote(name: string, s: SearchResult): string {
  const sorted = [...s.matches].sort((a, b) => a - b);
  return `${name} knowledge search: ${s.chunks} chunks in ${s.sources} sources of one workspace (bulk load ${Math.round(s.fillPerSecond)} chunks/s); the ${s.matches.length} queries match ${sorted[0]}–${sorted.at(-1)} chunks (median ${median(s.matches)}); medians ${ms(median(s.bareNoSnippetMs))} bare without snippets, ${ms(median(s.bareMs))} bare with them, ${ms(median(s.searchMs))} searchChunks, ${ms(median(s.httpMs))} HTTP; p95 ratio ${(quantile(s.bareMs, 0.95) / quantile(s.httpMs, 0.95)).toFixed(2)} (HTTP), ${(quantile(s.bareMs, 0.95) / quantile(s.searchMs, 0.95)).toFixed(2)} (searchChunks); HTTP minus searchChunks, median ${ms(median(s.httpMs) - median(s.searchMs))}; slowest query ${slowestQuery(s)}; ${s.searchMs.length} samples of each.`;
}

const list = (values: number[]) => values.map((v) => Math.round(v)).join(', ');

/** The query with the highest median searchChunks time: the p95s come from queries matching most chunks, all of which get ranked. */
function slowestQuery(s: SearchResult): string {
  const medians = QUERIES.map((_, q) => ({
    q,
    search: median(s.searchMs.filter((_, i) => s.queryIndex[i] === q)),
    bare: median(s.bareMs.filter((_, i) => s.queryIndex[i] === q)),
  }));
  const worst = medians.reduce((a, b) => (b.search > a.search ? b : a));
  return `${QUERIES[worst.q]} (${s.matches[worst.q]} matches): median ${ms(worst.search)} against ${ms(worst.bare)} bare`;
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

const missing = (label: string, why: string): RowResult => ({ label, a: why, b: '—', ratio: Number.NaN });
