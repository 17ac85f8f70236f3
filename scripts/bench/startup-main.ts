// The start-up rows alone: tsx scripts/bench/startup-main.ts [--runs N] (default 10) [--node <path to node>]...
// Builds dist/, then times `npm start` to the first /healthz 200 on PGlite (existing and new data folder) against
// node -e opening the folder, on the machine's Node and the development dependency's Node 22, or on the `--node`
// binaries given (each one's own npm start, npm running on it too).
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startupRows } from './startup-rows.ts';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '10' }, node: { type: 'string', multiple: true } },
});
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const started = performance.now();
const progress = (line: string) =>
  process.stderr.write(`start-up [${Math.round((performance.now() - started) / 1000)} s]: ${line}\n`);
// Without --node, the machine's Node and the development dependency's Node 22 (startupRows's default).
const nodes = args.node?.map((node) => resolve(node));
const result = await startupRows(repoRoot, Number(args.runs), progress, nodes);
for (const row of result.rows)
  process.stdout.write(`| ${row.label} | ${row.a} | ${row.b} | ${row.ratio.toFixed(2)} |\n`);
for (const note of result.notes) process.stdout.write(`\n- ${note}\n`);
