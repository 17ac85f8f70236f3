// npm run bench [-- --quick]: ratios measured in one run, never absolute figures. Starts a plain
// node:http server and the real service (each in its own child process), measures every target in
// interleaved autocannon rounds from this process, times the code generator against
// openapi-typescript, prints a markdown table and writes it to test-output/bench.md. The HTTP rounds include
// the tracking pixel and redirect against a static 204 on the same app (scripts/bench/tracking-rows.ts).
// The service runs on embedded PGlite in a temporary DATA_DIR, or on PostgreSQL (a private schema,
// dropped afterwards) when DATABASE_URL is set. Then, in this process, the long-work rows (jobs per second,
// get_operation wake-up) and the knowledge rows (pages per second through extraction, chunking and
// indexing; search_knowledge latency over many chunks) and the lead-import rows (import rows/s end to
// end through the API against a plain unnest insert; the service's peak RSS while importing a large
// csv_url against its idle RSS) on embedded PGlite and, when DATABASE_URL is set, on PostgreSQL too; and the
// sequence-sending rows (messages/s from due to recorded at a fake Gmail, and on PostgreSQL the database cost
// per message, each against a plain insert + update per message); the reply rows (inbound messages/s synced and
// classified against a plain fetch of the same messages, and a reply's latency to its enrollment stopped by
// the minute sync and by the pre-send check, each against the plain read it needs); the analytics rows (the
// analytics query over 100,000 bulk-inserted sent messages against a plain count(*) of them); and the installable service-mcp launcher
// (packages/) against bin/service-mcp.js: installed size, package count, spawn to tools/list; and start-up (npm start,
// built already, to the first /healthz 200 on an existing and on a new PGlite folder, against node -e opening it).
//
// Options: --quick (≈30 s smoke run) · --seconds N (time budget of the HTTP rounds) · --duration N
// (seconds per target per round) · --rounds N (overrides the budget) · --warmup N · --connections N ·
// --codegen-runs N · --skip-codegen · --skip-packages · --skip-startup · --skip-long-work · --skip-knowledge · --skip-leads · --skip-sequences · --skip-replies · --skip-analytics · --skip-tracking · --skip-steps (the in-process cost of each step of the
// API-key read and of an MCP tool call, scripts/bench/request-steps.ts) · --log-level L
// (service log level, default silent) · --profile (writes the service's CPU profile to test-output/profiles/).
// Rows are added as RowGroups (scripts/bench/row-runner.ts): see http-rows.ts, auth-rows.ts, mcp-rows.ts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { analyticsRows, analyticsSettings, type AnalyticsResult } from './bench/analytics-rows.ts';
import { authRows } from './bench/auth-rows.ts';
import { timeCodegen, type CodegenTimingResult } from './bench/codegen-timing.ts';
import { createCredentials } from './bench/credentials.ts';
import { httpRows } from './bench/http-rows.ts';
import { idempotencyRows } from './bench/idempotency-rows.ts';
import { knowledgeRows, knowledgeSettings, type KnowledgeResult } from './bench/knowledge-rows.ts';
import { leadsRows, leadsSettings, type LeadsResult } from './bench/leads-rows.ts';
import { longWorkRows, longWorkSettings, type LongWorkResult } from './bench/long-work-rows.ts';
import { mcpRows } from './bench/mcp-rows.ts';
import { packagesRows, type PackagesResult } from './bench/packages-launcher.ts';
import { renderReport } from './bench/report.ts';
import { repliesRows, repliesSettings, type RepliesResult } from './bench/replies-rows.ts';
import { sequencesRows, sequencesSettings, type SequencesResult } from './bench/sequences-rows.ts';
import { trackingRows } from './bench/tracking-rows.ts';
import { preflight, ratioRows, runInterleaved, type RowGroup, type Target } from './bench/row-runner.ts';
import { startServerProcess, type ServerProcess } from './bench/server-process.ts';
import { startupRows, type StartupResult } from './bench/startup-rows.ts';
import { describeMethod } from './bench/how-measured.ts';
import { measureRequestSteps, renderSteps } from './bench/request-steps.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string', default: '10' },
    'codegen-runs': { type: 'string' },
    'skip-codegen': { type: 'boolean', default: false },
    'skip-packages': { type: 'boolean', default: false },
    'skip-startup': { type: 'boolean', default: false },
    'skip-long-work': { type: 'boolean', default: false },
    'skip-knowledge': { type: 'boolean', default: false },
    'skip-leads': { type: 'boolean', default: false },
    'skip-sequences': { type: 'boolean', default: false },
    'skip-replies': { type: 'boolean', default: false },
    'skip-analytics': { type: 'boolean', default: false },
    'skip-tracking': { type: 'boolean', default: false },
    'skip-steps': { type: 'boolean', default: false },
    'log-level': { type: 'string', default: 'silent' },
    profile: { type: 'boolean', default: false },
  },
});

const quick = args.quick;
const num = (value: string | undefined, fallback: number) => (value === undefined ? fallback : Number(value));
// The HTTP rounds get a time budget: more targets (rows added later) mean fewer rounds, not a longer run.
// Short slots and many rounds spread bursts of machine noise over all targets better than a few long ones.
const settings = {
  budgetSeconds: num(args.seconds, quick ? 12 : 135),
  // autocannon runs whole seconds (its sampling tick is 1 s), so fractions are rounded up.
  durationSeconds: Math.max(1, Math.ceil(num(args.duration, quick ? 1 : 2))),
  warmupSeconds: Math.ceil(num(args.warmup, quick ? 0 : 1)),
  connections: num(args.connections, 10),
  codegenRuns: num(args['codegen-runs'], quick ? 1 : 5),
};
const roundsFor = (targets: number) =>
  args.rounds !== undefined
    ? Number(args.rounds)
    : Math.max(quick ? 2 : 5, Math.floor(settings.budgetSeconds / (targets * settings.durationSeconds)));
const databaseUrl = process.env.DATABASE_URL || undefined;
const started = performance.now();
const progress = (line: string) =>
  process.stderr.write(`bench [${Math.round((performance.now() - started) / 1000)} s]: ${line}\n`);

const servers: ServerProcess[] = [];
const tmpDirs: string[] = [];
let cleaned = false;
async function cleanUp(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  await Promise.allSettled(servers.map((s) => s.stop()));
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
}
process.on('SIGINT', () => void cleanUp().finally(() => process.exit(130)));

async function measureHttp() {
  const profileDir = join(repoRoot, 'test-output/profiles');
  const execArgv = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  progress(`starting node:http and the service (${databaseUrl ? 'PostgreSQL' : 'embedded PGlite'})`);
  const [plain, service] = await Promise.all([
    startServerProcess('node:http', join(repoRoot, 'scripts/bench/serve-plain.ts'), { cwd: repoRoot }),
    startServerProcess('service', join(repoRoot, 'scripts/bench/serve-service.ts'), {
      cwd: repoRoot,
      execArgv,
      env: { BENCH_SERVICE: JSON.stringify({ databaseUrl, logLevel: args['log-level'] }) },
    }),
  ]);
  servers.push(plain, service);
  const credentials = await createCredentials(service.url);
  // /mcp is young: if its handshake fails, report that and measure the other rows.
  const mcp = await mcpRows(service, credentials).catch(
    (error: Error): RowGroup => ({ targets: [], rows: [], notes: [`MCP rows skipped: ${error.message}`] }),
  );
  const groups: RowGroup[] = [
    httpRows({ plain, service }),
    authRows(service, credentials),
    mcp,
    idempotencyRows(service, credentials),
  ];
  // The pixel and the redirect of open and click tracking against a static 204 on the same app.
  if (!args['skip-tracking'])
    groups.push(
      await trackingRows(service).catch(
        (error: Error): RowGroup => ({ targets: [], rows: [], notes: [`Tracking rows skipped: ${error.message}`] }),
      ),
    );
  const targets: Target[] = groups.flatMap((g) => g.targets);
  await preflight(targets);
  const rounds = roundsFor(targets.length);
  const estimate = targets.length * (settings.warmupSeconds + rounds * settings.durationSeconds);
  progress(
    `${targets.length} targets × ${rounds} rounds × ${settings.durationSeconds} s (about ${Math.round(estimate)} s)`,
  );
  const loadBefore = loadavg()[0];
  const stats = await runInterleaved(targets, { ...settings, rounds, progress });
  await Promise.all([plain.stop(), service.stop()]);
  if (args.profile) progress(`service CPU profile written under ${profileDir}`);
  return {
    service,
    rounds,
    load: `${loadBefore.toFixed(1)} at the start of the rounds, ${loadavg()[0].toFixed(1)} at the end`,
    rows: groups.flatMap((g) => ratioRows(g.rows, stats)),
    targets: [...stats.values()],
    notes: groups.flatMap((g) => g.notes ?? []),
  };
}

try {
  const http = await measureHttp();
  // After the HTTP rounds, in this process: what each middleware of the API-key read and an MCP call's wrapping cost.
  if (!args['skip-steps']) {
    const stepSettings = { rounds: quick ? 2 : 7, requests: quick ? 500 : 2000 };
    progress(`timing the steps of a request in process (${stepSettings.rounds} rounds)`);
    const steps = await measureRequestSteps(stepSettings, databaseUrl, progress).catch((error: Error) => error);
    http.notes.push(
      ...(steps instanceof Error ? [`Request steps skipped: ${steps.message}`] : renderSteps(steps, stepSettings)),
    );
  }
  const workSettings = longWorkSettings(quick, args['log-level']);
  let longWork: LongWorkResult | undefined;
  if (!args['skip-long-work']) longWork = await longWorkRows(workSettings, databaseUrl, progress);
  const knowSettings = knowledgeSettings(quick, args['log-level']);
  let knowledge: KnowledgeResult | undefined;
  if (!args['skip-knowledge']) knowledge = await knowledgeRows(knowSettings, databaseUrl, progress);
  const importSettings = leadsSettings(quick, args['log-level']);
  let leads: LeadsResult | undefined;
  if (!args['skip-leads']) leads = await leadsRows(importSettings, databaseUrl, progress);
  let sequences: SequencesResult | undefined;
  if (!args['skip-sequences'])
    sequences = await sequencesRows(sequencesSettings(quick, args['log-level']), databaseUrl, progress);
  const replySettings = repliesSettings(quick, args['log-level']);
  let replies: RepliesResult | undefined;
  if (!args['skip-replies']) replies = await repliesRows(replySettings, databaseUrl, progress);
  let analytics: AnalyticsResult | undefined;
  if (!args['skip-analytics']) analytics = await analyticsRows(analyticsSettings(quick), databaseUrl, progress);
  let codegen: CodegenTimingResult | undefined;
  if (!args['skip-codegen']) {
    progress(`timing codegen (${settings.codegenRuns} alternating runs each)`);
    const tmpDir = mkdtempSync(join(tmpdir(), 'bench-codegen-'));
    tmpDirs.push(tmpDir);
    codegen = await timeCodegen({
      repoRoot,
      specsDir: resolve(repoRoot, '../shared/specs'),
      tmpDir,
      runs: settings.codegenRuns,
      progress,
    });
  }
  let packages: PackagesResult | undefined;
  if (!args['skip-packages']) {
    packages = await packagesRows(repoRoot, quick ? 3 : 10, progress).catch((error: Error) => ({
      rows: [],
      notes: [`package rows skipped: ${error.message}`],
    }));
  }
  let startup: StartupResult | undefined;
  if (!args['skip-startup']) {
    startup = await startupRows(repoRoot, quick ? 3 : 10, progress).catch((error: Error) => ({
      rows: [],
      notes: [`start-up rows skipped: ${error.message}`],
    }));
  }
  const report = renderReport({
    rows: [
      ...http.rows,
      ...(longWork?.rows ?? []),
      ...(knowledge?.rows ?? []),
      ...(leads?.rows ?? []),
      ...(sequences?.rows ?? []),
      ...(replies?.rows ?? []),
      ...(analytics?.rows ?? []),
      ...(codegen ? [codegen.row] : []),
      ...(packages?.rows ?? []),
      ...(startup?.rows ?? []),
    ],
    targets: http.targets,
    facts: {
      date: new Date().toISOString(),
      mode: quick ? 'quick (smoke run: too short for conclusions)' : 'full',
      'service database': http.service.info.database ?? 'unknown',
      machine: `${availableParallelism()} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}`,
      'load average (1 min)': `${http.load} (other work on the machine; above the CPU count, expect noisy rows)`,
    },
    howMeasured: describeMethod({
      ...settings,
      rounds: http.rounds,
      logLevel: args['log-level'],
      codegen,
      longWork: longWork && workSettings,
      knowledge: knowledge && knowSettings,
      leads: leads && importSettings,
      replies: replies && replySettings,
    }),
    notes: [
      ...http.notes,
      ...(longWork?.notes ?? []),
      ...(knowledge?.notes ?? []),
      ...(leads?.notes ?? []),
      ...(sequences?.notes ?? []),
      ...(replies?.notes ?? []),
      ...(analytics?.notes ?? []),
      ...(packages?.notes ?? []),
      ...(startup?.notes ?? []),
    ],
  });
  process.stdout.write(`\n${report}`);
  mkdirSync(join(repoRoot, 'test-output'), { recursive: true });
  writeFileSync(join(repoRoot, 'test-output/bench.md'), report);
  progress('written to test-output/bench.md');
  if (
    longWork?.failed ||
    knowledge?.failed ||
    leads?.failed ||
    sequences?.failed ||
    replies?.failed ||
    analytics?.failed
  )
    process.exitCode = 1;
} catch (error) {
  process.exitCode = 1;
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await cleanUp();
}
