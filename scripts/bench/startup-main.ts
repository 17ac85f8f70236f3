// The start-up rows alone: tsx scripts/bench/startup-main.ts [--runs N] (default 10). Builds dist/, then times
// `npm start` to the first /healthz 200 on PGlite (existing and new data folder) against node -e opening the folder.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startupRows } from './startup-rows.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const started = performance.now();
const progress = (line: string) =>
  process.stderr.write(`start-up [${Math.round((performance.now() - started) / 1000)} s]: ${line}\n`);
const result = await startupRows(repoRoot, Number(args.runs), progress);
for (const row of result.rows)
  process.stdout.write(`| ${row.label} | ${row.a} | ${row.b} | ${row.ratio.toFixed(2)} |\n`);
for (const note of result.notes) process.stdout.write(`\n- ${note}\n`);
