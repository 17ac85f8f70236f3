// The sequence-sending rows alone: tsx scripts/bench/sequences-main.ts [--quick] [--messages N]
// [--pglite-messages N] (0 skips PGlite) [--in-flight 20,8,1] (SEQUENCE_SENDS_IN_FLIGHT, a run each). PostgreSQL is measured when DATABASE_URL is set. Prints the rows and notes.
import { parseArgs } from 'node:util';
import { sequencesRows, sequencesSettings } from './sequences-rows.ts';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    messages: { type: 'string' },
    'pglite-messages': { type: 'string' },
    'in-flight': { type: 'string' },
    'log-level': { type: 'string', default: 'silent' },
  },
});

const defaults = sequencesSettings(args.quick, args['log-level']);
const num = (value: string | undefined, fallback: number) => (value === undefined ? fallback : Number(value));
const settings = {
  ...defaults,
  postgresMessages: num(args.messages, defaults.postgresMessages),
  pgliteMessages: num(args['pglite-messages'], defaults.pgliteMessages),
  inFlight: args['in-flight'] ? args['in-flight'].split(',').map(Number) : defaults.inFlight,
};
const started = performance.now();
const progress = (line: string) =>
  process.stderr.write(`sequences [${Math.round((performance.now() - started) / 1000)} s]: ${line}\n`);
const result = await sequencesRows(settings, process.env.DATABASE_URL || undefined, progress);
for (const row of result.rows)
  process.stdout.write(
    `| ${row.label} | ${row.a} | ${row.b} | ${Number.isNaN(row.ratio) ? '—' : row.ratio.toFixed(3)} |\n`,
  );
for (const note of result.notes) process.stdout.write(`\n- ${note}\n`);
if (result.failed) process.exitCode = 1;
