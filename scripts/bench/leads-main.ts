// The lead-import rows alone, for working on the import without the HTTP rounds of npm run bench:
// tsx scripts/bench/leads-main.ts [--quick] [--rows N] [--rounds N] [--memory-rows N] [--skip-memory]
// [--skip-pglite]. PostgreSQL is measured too when DATABASE_URL is set. Prints the rows and notes.
import { parseArgs } from 'node:util';
import { leadsRows, leadsSettings } from './leads-rows.ts';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    rows: { type: 'string' },
    rounds: { type: 'string' },
    'memory-rows': { type: 'string' },
    'skip-memory': { type: 'boolean', default: false },
    'skip-pglite': { type: 'boolean', default: false },
    'log-level': { type: 'string', default: 'silent' },
  },
});

const defaults = leadsSettings(args.quick, args['log-level']);
const num = (value: string | undefined, fallback: number) => (value === undefined ? fallback : Number(value));
const settings = {
  ...defaults,
  importRows: num(args.rows, defaults.importRows),
  importRounds: num(args.rounds, defaults.importRounds),
  memoryRows: args['skip-memory'] ? 0 : num(args['memory-rows'], defaults.memoryRows),
  skipPglite: args['skip-pglite'],
};
const started = performance.now();
const progress = (line: string) =>
  process.stderr.write(`leads [${Math.round((performance.now() - started) / 1000)} s]: ${line}\n`);
const result = await leadsRows(settings, process.env.DATABASE_URL || undefined, progress);
for (const row of result.rows)
  process.stdout.write(
    `| ${row.label} | ${row.a} | ${row.b} | ${Number.isNaN(row.ratio) ? '—' : row.ratio.toFixed(3)} |\n`,
  );
for (const note of result.notes) process.stdout.write(`\n- ${note}\n`);
if (result.failed) process.exitCode = 1;
