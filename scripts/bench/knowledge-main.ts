// The knowledge rows alone, for working on ingest or search without the HTTP rounds of npm run bench:
// tsx scripts/bench/knowledge-main.ts [--quick] [--chunks N] [--samples N] [--skip-ingest] [--skip-pglite].
// PostgreSQL is measured too when DATABASE_URL is set. Prints the rows and notes.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { knowledgeRows, knowledgeSettings } from './knowledge-rows.ts';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    chunks: { type: 'string' },
    samples: { type: 'string' },
    'skip-ingest': { type: 'boolean', default: false },
    'skip-pglite': { type: 'boolean', default: false },
    'log-level': { type: 'string', default: 'silent' },
  },
});

const defaults = knowledgeSettings(args.quick, args['log-level']);
const num = (value: string | undefined, fallback: number) => (value === undefined ? fallback : Number(value));
const settings = {
  ...defaults,
  chunks: num(args.chunks, defaults.chunks),
  samples: num(args.samples, defaults.samples),
  skipIngest: args['skip-ingest'],
  skipPglite: args['skip-pglite'],
};
const started = performance.now();
const progress = (line: string) =>
  process.stderr.write(`knowledge [${Math.round((performance.now() - started) / 1000)} s]: ${line}\n`);
const loadBefore = loadavg();
const result = await knowledgeRows(settings, process.env.DATABASE_URL || undefined, progress);
for (const row of result.rows)
  process.stdout.write(
    `| ${row.label} | ${row.a} | ${row.b} | ${Number.isNaN(row.ratio) ? '—' : row.ratio.toFixed(3)} | ${row.spread ? row.spread.map((v) => v.toFixed(2)).join('–') : ''} |\n`,
  );
for (const note of result.notes) process.stdout.write(`\n- ${note}\n`);
const fmt = (l: number[]) => l.map((v) => v.toFixed(2)).join(' ');
process.stdout.write(`\nload average before ${fmt(loadBefore)}, after ${fmt(loadavg())}\n`);
if (result.failed) process.exitCode = 1;
