// The reply rows alone: tsx scripts/bench/replies-main.ts [--quick] [--messages N] [--threads N] [--samples N].
// PostgreSQL is measured too when DATABASE_URL is set. Prints the rows and notes.
import { parseArgs } from 'node:util';
import { repliesRows, repliesSettings } from './replies-rows.ts';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    messages: { type: 'string' },
    threads: { type: 'string' },
    samples: { type: 'string' },
    'log-level': { type: 'string', default: 'silent' },
  },
});

const defaults = repliesSettings(args.quick, args['log-level']);
const num = (value: string | undefined, fallback: number) => (value === undefined ? fallback : Number(value));
const settings = {
  ...defaults,
  messages: num(args.messages, defaults.messages),
  threads: num(args.threads, defaults.threads),
  samples: num(args.samples, defaults.samples),
};
const started = performance.now();
const progress = (line: string) =>
  process.stderr.write(`replies [${Math.round((performance.now() - started) / 1000)} s]: ${line}\n`);
const result = await repliesRows(settings, process.env.DATABASE_URL || undefined, progress);
for (const row of result.rows)
  process.stdout.write(
    `| ${row.label} | ${row.a} | ${row.b} | ${Number.isNaN(row.ratio) ? '—' : row.ratio.toFixed(3)} |\n`,
  );
for (const note of result.notes) process.stdout.write(`\n- ${note}\n`);
if (result.failed) process.exitCode = 1;
