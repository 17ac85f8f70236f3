// The "how measured" paragraph of the report, filled in with this run's settings.
import type { CodegenTimingResult } from './codegen-timing.ts';
import { ENQUEUE_BATCH, WARMUP } from './jobs-throughput.ts';
import { INGEST_WARMUP_PAGES } from './knowledge-ingest.ts';
import { knowledgeSettings, type KnowledgeSettings } from './knowledge-rows.ts';
import { BARE_QUERY, BARE_QUERY_NO_SNIPPETS, CHUNKS_PER_SOURCE, FILL_BATCH } from './knowledge-search.ts';
import { QUERIES, TOPICS } from './knowledge-text.ts';
import { CSV_HEADER } from './leads-csv.ts';
import { IMPORT_WARMUP_ROWS } from './leads-import.ts';
import { IDLE_MS, SAMPLE_MS } from './leads-memory.ts';
import { leadsSettings, type LeadsSettings } from './leads-rows.ts';
import type { LongWorkSettings } from './long-work-rows.ts';
import { MEAN_TICK_WAIT_MS, type RepliesSettings } from './replies-rows.ts';

export interface MethodSettings {
  rounds: number;
  budgetSeconds: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  codegenRuns: number;
  logLevel: string;
  codegen?: CodegenTimingResult;
  longWork?: LongWorkSettings;
  knowledge?: KnowledgeSettings;
  leads?: LeadsSettings;
  replies?: RepliesSettings;
}

export function describeMethod(s: MethodSettings): string {
  const parts = [
    `Every target is a real HTTP server on 127.0.0.1 started by the benchmark: plain node:http answering a small JSON body,`,
    `and the service — createServices + createApp, served by @hono/node-server, with bench-only routes for the auth rows —`,
    `each in its own child Node process. autocannon (programmatic API, ${s.connections} connections, no pipelining) runs in the`,
    `parent process. Separate processes are the fairer layout on a 2-core machine: the load generator takes one core and the`,
    `server under test (a single JS thread, embedded PGlite included) the other, the same for the baseline as for the service;`,
    `with the baseline in the load generator's process it would compete with autocannon for one thread and look slower than it is.`,
    `Only one target is loaded at a time; idle servers cost nothing. After ${s.warmupSeconds ? `a ${s.warmupSeconds} s warm-up per target` : 'no warm-up (quick mode)'}, ${s.rounds}`,
    `interleaved rounds of ${s.durationSeconds} s per target run (about ${s.budgetSeconds} s in all, so adding targets means fewer`,
    `rounds, not a longer run), so machine noise hits all targets alike. Each round starts one target later than the one`,
    `before (A, B, C / B, C, A / …), so no target always runs right after the same one and inherits its leftover garbage`,
    `(forcing a GC between runs was tried and rejected: it made every following run about 50% more expensive). Each figure is the median over`,
    `rounds of requests/sec (completed requests ÷ run time), and every row is the ratio of two`,
    `medians from this one run. Any non-2xx answer (other than the tracked link's expected 302) fails the run, and each target's answer is checked once before measuring.`,
    `Server CPU per request comes from the child's process.cpuUsage() around each run; when the baseline saturates the load`,
    `generator rather than its server, the req/s ratios against node:http flatter the service, and the CPU ratios do not.`,
    `The auth rows read one workspace row by primary key through a zod-validated query, on the same route code behind the`,
    `public guard chain (a) or the protected one (b: JWT, c: API key), both built by operationGuard; the user and key come`,
    `from the real sign-up and key-minting API. Rate limits are raised so the throttle runs but never refuses. Log level: ${s.logLevel}.`,
  ];
  if (s.codegen) {
    parts.push(
      `Codegen: \`node --import tsx scripts/codegen.ts --spec <doc> --out <tmp>\` against`,
      `\`node node_modules/openapi-typescript/bin/cli.js <doc> -o <tmp>\` on the largest document in ../shared/specs`,
      `(${s.codegen.spec.split('/').pop()}), each a fresh child process, ${s.codegenRuns} alternating runs each, median wall time;`,
      `child CPU time comes from /proc/self/stat (cutime + cstime).`,
    );
  }
  if (s.longWork) parts.push(...describeLongWork(s.longWork));
  if (s.knowledge) parts.push(...describeKnowledge(s.knowledge));
  if (s.leads) parts.push(...describeLeads(s.leads));
  if (s.replies) parts.push(...describeReplies(s.replies));
  return parts.join(' ');
}

function describeLongWork(w: LongWorkSettings): string[] {
  return [
    `Long-work rows run in the benchmark's own process after the HTTP rounds, on a fresh embedded PGlite (temporary DATA_DIR)`,
    `and, when DATABASE_URL is set, on a private schema of that PostgreSQL, each ratio's two sides on the same database.`,
    `Jobs: ${w.jobRounds} rounds (after a warm-up of ${WARMUP} of each), alternating which side goes first, of ${w.jobs} no-op jobs enqueued through`,
    `src/jobs in concurrent batches of ${ENQUEUE_BATCH} and run by a worker in this process (concurrency ${w.concurrency}), timed from the first enqueue`,
    `to pg-boss recording the last one completed, against ${w.jobs} single-row insert transactions (each its own sql.begin,`,
    `${w.concurrency} in flight, on the service's postgres.js client: 10 connections on PostgreSQL, 1 on PGlite); the ratio is of the`,
    `medians over rounds. Wake-up: the real service (createServices + createApp, served by @hono/node-server on 127.0.0.1, fetch`,
    `from the same process) with a bench-only operation whose job waits at a gate before each progress step; per sample, a plain`,
    `GET /api/v1/operations/{id} is timed, then GET …?wait_seconds=30 is sent, and once it sleeps on the operation's watch (seen`,
    `through a wrapper around deps.resourceWatch) and 10 ms more, the gate opens and the time to its answer is taken (the job's`,
    `progress write included). ${w.samples} samples after ${w.warmupSamples} thrown away; medians and p95 of each, the ratio of the medians;`,
    `the slow re-read timer is set to 10 minutes so only the wake-up can answer.`,
  ];
}

function describeKnowledge(k: KnowledgeSettings): string[] {
  const full = knowledgeSettings(false, k.logLevel).chunks;
  return [
    `Knowledge rows also run in the benchmark's own process, each database a fresh one as for the long-work rows.`,
    `Search first: ${k.chunks} generated chunks (${k.chunks === full ? 'full run' : `quick run; ${full} in a full run`}) of marketing prose on one of ${TOPICS.length} topics per page,`,
    `in sources of ${CHUNKS_PER_SOURCE}, go into one workspace made by the real sign-up through insertChunks in batches of ${FILL_BATCH}, each`,
    `source then published as the crawler does, and both tables are analysed. ${QUERIES.length} queries of 1–3 words (a quoted`,
    `phrase and an \`or\` among them) are cycled; per sample, in a rotating order, searchChunks(sql, workspace, { query,`,
    `sourceIds: [], limit: 10 }) (what search_knowledge runs: match, rank, then ts_headline on the best 10), the bare query`,
    `that answers the same, PostgreSQL's documented form with the operation's ts_headline options, \`${BARE_QUERY}\` (one`,
    `workspace in the table, so no workspace filter is needed; the baseline of the rows), the same without snippets`,
    `\`${BARE_QUERY_NO_SNIPPETS}\` (for information), and GET /api/v1/knowledge/search?query=…`,
    `on the real service (createServices + createApp on 127.0.0.1, JWT from the sign-up; node:http from this process over one kept-alive connection, a lean client as postgres.js is for the SQL) are timed;`,
    `every query is first checked to return the same number of hits, and the same snippets, each way. ${k.samples} samples of each after`,
    `${k.warmupSamples} thrown away; medians and p95; the rows are searches per second (the bare median over the other's, so`,
    `higher is better; issue 32's goal for the HTTP row is ≥ 0.8) with the IQR of per-sample ratios. Ingest: ${k.pages} HTML pages`,
    `built by the bench (blog post, landing page and docs guide templates with head, cookie banner, navigation, footer;`,
    `5–30 KB each, seeded so every run has the same pages) go one after another through extractPage → chunkPage →`,
    `insertChunks into a new source's next generation, published at the end of the round, against the same pages' raw`,
    `HTML inserted one row per statement into a plain table; ${k.pageRounds} rounds alternating which side goes first, after one`,
    `extraction pass over every page and ${INGEST_WARMUP_PAGES} pages of each side thrown away; the ratio is of the medians over rounds.`,
  ];
}

function describeLeads(l: LeadsSettings): string[] {
  const full = leadsSettings(false, l.logLevel);
  const quick = l.importRows !== full.importRows;
  const n = (value: number) => value.toLocaleString('en');
  return [
    `Lead rows: the CSV (\`${CSV_HEADER}\`, unique emails, a quoted company with a comma in every row, two tags per row) is`,
    `generated on the fly and streamed by a node:http server in the benchmark's process, given to the service as`,
    `POST /api/v1/leads/imports {"csv_url": …} (OUTBOUND_ALLOW_PRIVATE=true so it may fetch 127.0.0.1). Import rows/s: on a fresh`,
    `database as for the other in-process rows, the real service (createServices + createApp on 127.0.0.1, jobs worked in this`,
    `process on a private pg-boss schema, JWT from the real sign-up) imports ${n(l.importRows)} rows${quick ? ` (quick run; ${n(full.importRows)} in a full run)` : ''},`,
    `timed from sending the POST to the operation seen succeeded through GET /api/v1/operations/{id}?wait_seconds=30, then`,
    `GET /api/v1/leads/imports/{id} must count every row created; against the same rows inserted into the same table, leads`,
    `(its indexes; another workspace id; ids made as the import makes them), by \`insert … select … from unnest(…)\` in batches of`,
    `the engine's size through postgres.js, with no conflict clause, suppression lookup or checkpoint (the same insert into an`,
    `unindexed table of six text columns is timed too, for the notes); on PostgreSQL also against \`psql \\copy\` of the same file`,
    `(written to a temporary folder) into \`like leads including all\` (its indexes and checks; defaults for id, workspace,`,
    `status and times; tags as text, since the file writes them \`a;b\`), timed from starting psql to its exit;`,
    `${l.importRounds > 1 ? `${l.importRounds} rounds alternating which side goes first` : 'one round, the import first'}, after ${n(IMPORT_WARMUP_ROWS)} rows of each thrown away, the ratio of the medians. The pipeline's`,
    `stages are then timed alone on as many rows (notes). Memory: the service (same set-up, production argon2 parameters) runs in`,
    `a child process on its own fresh database; after sign-up its RSS (/proc/<pid>/status VmRSS) is sampled every ${SAMPLE_MS} ms for`,
    `${IDLE_MS / 1000} s of idleness (idle = the median), then VmHWM is reset (/proc/<pid>/clear_refs) and the child imports ${n(l.memoryRows)} rows${quick ? ` (${n(full.memoryRows)} in a full run)` : ''} while`,
    `sampling goes on; the peak is the higher of the sampled maximum and VmHWM; the row is peak ÷ idle, with peak − idle beside it.`,
  ];
}

function describeReplies(r: RepliesSettings): string[] {
  return [
    `Reply rows: on a fresh database as for the other in-process rows, the real service with a live Gmail connector (send +`,
    `read_replies) against the strict fake Google over HTTP sends step 1 of a two-step sequence to every lead; ${r.messages}`,
    `answers in ${r.threads} of those threads (an auto-reply first in each, then human replies) are then synced by syncMailbox (what the`,
    `mailbox.sync job runs) until all are in inbound_messages, against plain fetch of the same history.list pages and one`,
    `messages.get format=metadata each, one request at a time as the sync makes them; ${r.syncRounds} round(s), alternating sides. Latency,`,
    `${r.samples} samples each after ${r.warmupSamples} thrown away, one fresh thread per sample: a reply is delivered, then one minute tick (the`,
    `sweep's mailbox list, then syncMailbox) is timed to its end with the enrollment stopped, or the lead's step 2 is made due`,
    `and the sender (dispatchDue, sendFromMailbox) is timed to its end with the enrollment stopped and nothing sent; baselines: the`,
    `plain history.list + messages.get of that reply, and a plain threads.get of that thread. The minute sync's wait for its tick`,
    `is not measured: ${MEAN_TICK_WAIT_MS / 1000} s (the mean wait of a one-minute poll) is added to its median.`,
  ];
}
