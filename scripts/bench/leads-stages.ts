// Where an import's time goes, for the notes: the stages of the pipeline timed on their own in this
// process with the same number of generated rows, each a step closer to the end-to-end import:
// generating the CSV text (the bench's own cost, included in the others), parsing it (readCsvRows),
// parsing and normalising (csvItemGroups + normalizeLead), the job's batch write alone on normalised leads
// (LeadBatch + writeLeadCounts), and
// the whole engine (runImport over csvItemGroups: parse, normalise, write, counts) without HTTP, the job
// queue or the fetch.
import type { Database } from '../../src/db/connection.ts';
import { insertImport } from '../../src/handlers/leads/lead-imports-data.ts';
import { LeadBatch } from '../../src/handlers/leads/lead-batch.ts';
import { writeLeadCounts } from '../../src/handlers/leads/lead-batch-data.ts';
import type { Deps } from '../../src/deps.ts';
import { readCsvRows } from '../../src/handlers/leads/csv-rows.ts';
import { normalizeLead } from '../../src/handlers/leads/lead-fields.ts';
import { BATCH_SIZE, runImport } from '../../src/handlers/leads/import-engine.ts';
import { csvItemGroups } from '../../src/handlers/leads/import-items.ts';
import { csvChunks, csvLine, leadValues } from './leads-csv.ts';

/** Rows per second of each stage. */
export interface StageResult {
  generate: number;
  parse: number;
  parseNormalise: number;
  write: number;
  engine: number;
}

async function* asAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}

const perSecond = (rows: number, started: number) => rows / ((performance.now() - started) / 1000);

export async function measureStages(
  deps: Deps,
  db: Database,
  workspaceId: string,
  rows: number,
  prefix: string,
): Promise<StageResult> {
  let started = performance.now();
  let bytes = 0;
  for (const chunk of csvChunks(`${prefix}-g`, rows)) bytes += chunk.length;
  if (bytes === 0) throw new Error('no CSV generated');
  const generate = perSecond(rows, started);

  started = performance.now();
  let parsed = 0;
  for await (const item of readCsvRows(asAsync(csvChunks(`${prefix}-p`, rows)))) if ('record' in item) parsed += 1;
  const parse = perSecond(rows, started);
  if (parsed !== rows) throw new Error(`readCsvRows gave ${parsed} of ${rows} rows`);

  started = performance.now();
  let normalised = 0;
  for await (const group of csvItemGroups(asAsync(csvChunks(`${prefix}-n`, rows)), undefined))
    for (const item of group) if ('input' in item && 'lead' in normalizeLead(item.input)) normalised += 1;
  const parseNormalise = perSecond(rows, started);
  if (normalised !== rows) throw new Error(`csvItemGroups + normalizeLead gave ${normalised} of ${rows} leads`);

  const write = await writeAlone(deps, db, workspaceId, rows, `${prefix}-w`);

  const imp = await insertImport(db.sql, workspaceId, deps.ids, {
    status: 'processing',
    source: 'csv',
    sourceUrl: null,
    onConflict: 'skip',
    columnMap: {},
    tags: [],
    createdBy: null,
    now: new Date(),
  });
  started = performance.now();
  const counts = await runImport(
    deps,
    { workspaceId, importId: imp.id, onConflict: 'skip', tags: [] },
    csvItemGroups(asAsync(csvChunks(`${prefix}-e`, rows)), undefined),
  );
  const engine = perSecond(rows, started);
  if (counts.created !== rows) throw new Error(`runImport created ${counts.created} of ${rows} rows`);
  return { generate, parse, parseNormalise, write, engine };
}

/** The job's batch write (LeadBatch filled untimed, then writeLeadCounts), one transaction per batch as the engine writes them. */
async function writeAlone(
  deps: Deps,
  db: Database,
  workspaceId: string,
  rows: number,
  prefix: string,
): Promise<number> {
  const batches: LeadBatch[] = [];
  for (let start = 0; start < rows; start += BATCH_SIZE) {
    const batch = new LeadBatch(deps.ids, []);
    for (let i = start; i < Math.min(rows, start + BATCH_SIZE); i += 1) {
      const v = leadValues(prefix, i);
      const normalized = normalizeLead({ ...v, tags: v.tags.split(';') });
      if (!('lead' in normalized)) throw new Error(`generated row ${csvLine(v).trim()} does not normalise`);
      batch.add(i + 1, normalized.lead);
    }
    batches.push(batch);
  }
  const started = performance.now();
  let created = 0;
  for (const batch of batches) {
    const counts = await db.sql.begin((tx) =>
      writeLeadCounts(tx, workspaceId, batch, { onConflict: 'skip', importId: null, now: new Date() }),
    );
    created += counts.created;
  }
  const result = perSecond(rows, started);
  if (created !== rows) throw new Error(`writeLeadCounts created ${created} of ${rows} rows`);
  return result;
}
