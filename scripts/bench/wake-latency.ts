// Wake-up latency of a waiting get_operation, beside a plain get_operation round trip, sample by
// sample against one app served on 127.0.0.1: the real service (createServices + createApp) with a
// bench-only operation kind whose job waits at a gate before each progress step. Each sample times a
// plain GET, then issues GET ?wait_seconds=30, lets the job past its gate once the call sleeps, and
// times from the gate opening (the job then records progress, which wakes waiters) to the answer.
import { z } from 'zod';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/connection.ts';
import {
  defineOperationJob,
  startOperation,
  type OperationJobKind,
} from '../../src/handlers/operations/operation-job.ts';
import { createServices, type Services } from '../../src/services.ts';
import { benchJobsSchema } from './bench-database.ts';
import { createCredentials } from './credentials.ts';
import { createGate, type Gate } from './gate.ts';
import { serveLocal, type LocalServer } from './serve-local.ts';

export interface WakeOptions {
  samples: number;
  /** Samples taken first and thrown away (JIT, connection set-up). */
  warmup: number;
  logLevel: string;
}

export interface WakeResult {
  /** Milliseconds, one per sample: gate opened → waiting GET answered. */
  wakeMs: number[];
  /** Of those, from the progress change committed (resourceWatch.changed) → answered. */
  afterChangeMs: number[];
  /** Milliseconds, one per sample: a plain GET's round trip, taken just before the waiting one. */
  plainMs: number[];
}

interface Bench {
  url: string;
  token: string;
  gate: Gate;
  /** Resolves when the next get_operation call goes to sleep on the operation's watch. */
  nextSleep(): Promise<void>;
  lastChange(): number;
}

// Long enough for the waiting call to read the operation again after registering and go to sleep.
const SETTLE_MS = 10;

export async function measureWakeLatency(db: Database, options: WakeOptions): Promise<WakeResult> {
  const gate = createGate();
  const jobsSchema = benchJobsSchema(db, 'wake');
  const kind = gatedKind(gate);
  const services = await createServices({
    db,
    config: benchConfig(options.logLevel),
    jobsSchema: jobsSchema.name,
    argon2Params: { memoryCost: 1024, timeCost: 1, parallelism: 1, outputLen: 32 },
    extraJobKinds: [kind],
  });
  let server: LocalServer | undefined;
  try {
    const watched = watchTheWatch(services);
    await services.startJobs({ work: true });
    server = await serveLocal(createApp(services.deps));
    const { url } = server;
    const credentials = await createCredentials(url);
    const bench: Bench = { url, token: credentials.token, gate, ...watched };
    const steps = options.warmup + options.samples;
    const actor = {
      kind: 'user' as const,
      workspaceId: credentials.workspaceId,
      userId: credentials.userId,
      role: 'owner' as const,
    };
    const { row, afterCommit } = await db.sql.begin((tx) =>
      startOperation(services.deps, tx, actor, { kind, input: { steps }, progressTotal: steps }),
    );
    afterCommit();
    await untilRunning(bench, row.id);
    const result: WakeResult = { wakeMs: [], afterChangeMs: [], plainMs: [] };
    for (let step = 1; step <= steps; step += 1) {
      const sample = await takeSample(bench, row.id, step);
      if (step <= options.warmup) continue;
      result.wakeMs.push(sample.wakeMs);
      result.afterChangeMs.push(sample.afterChangeMs);
      result.plainMs.push(sample.plainMs);
    }
    return result;
  } finally {
    gate.openAll();
    if (server) await server.close();
    await services.close();
    await jobsSchema.drop();
  }
}

async function takeSample(
  bench: Bench,
  id: string,
  step: number,
): Promise<{ wakeMs: number; afterChangeMs: number; plainMs: number }> {
  const plainStart = performance.now();
  await getOperation(bench, id, 0);
  const plainMs = performance.now() - plainStart;
  const sleeping = bench.nextSleep();
  const answer = getOperation(bench, id, 30);
  // An answer before the call sleeps (an error, say) is caught by the progress check below.
  await Promise.race([sleeping, answer]);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const opened = performance.now();
  bench.gate.open();
  const body = await answer;
  const answered = performance.now();
  if (body.progress.done !== step)
    throw new Error(`waiting get_operation answered progress ${body.progress.done}, expected ${step}`);
  return { wakeMs: answered - opened, afterChangeMs: answered - bench.lastChange(), plainMs };
}

interface OperationBody {
  status: string;
  progress: { done: number | null; total: number | null };
}

async function getOperation(bench: Bench, id: string, waitSeconds: number): Promise<OperationBody> {
  const query = waitSeconds ? `?wait_seconds=${waitSeconds}` : '';
  const res = await fetch(`${bench.url}/api/v1/operations/${id}${query}`, {
    headers: { Authorization: `Bearer ${bench.token}` },
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET /api/v1/operations/${id}${query}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as OperationBody;
}

async function untilRunning(bench: Bench, id: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await getOperation(bench, id, 5)).status !== 'running') {
    if (Date.now() > deadline) throw new Error(`operation ${id} did not start running within 30 s`);
  }
}

function gatedKind(gate: Gate): OperationJobKind<{ steps: number }> {
  return defineOperationJob({
    name: 'bench.gated',
    type: 'bench_gated',
    input: z.object({ steps: z.number().int() }),
    retry: { limit: 0, delaySeconds: 0, backoff: false },
    expireInSeconds: 3600,
    async run(input, work) {
      for (let step = 1; step <= input.steps; step += 1) {
        await gate.pass();
        await work.progress(step);
      }
    },
  });
}

/** Wraps deps.resourceWatch (the job and get_operation both reach it through deps) to see when a call sleeps and when a change is announced. */
function watchTheWatch(services: Services): Pick<Bench, 'nextSleep' | 'lastChange'> {
  const watch = services.deps.resourceWatch;
  let slept: (() => void) | undefined;
  let changedAt = Number.NaN;
  services.deps.resourceWatch = {
    ...watch,
    wait(id, ms, signal) {
      const woken = watch.wait(id, ms, signal);
      slept?.();
      slept = undefined;
      return woken;
    },
    changed(id) {
      changedAt = performance.now();
      watch.changed(id);
    },
  };
  return {
    nextSleep: () => new Promise<void>((resolve) => (slept = resolve)),
    lastChange: () => changedAt,
  };
}

function benchConfig(logLevel: string) {
  return loadConfig({
    LOG_LEVEL: logLevel,
    RATE_LIMIT_PER_CREDENTIAL: '1000000',
    RATE_LIMIT_PER_ADDRESS: '1000000',
    JOBS_POLL_INTERVAL_MS: '500',
    // Only the wake-up may answer a waiting call, never the slow re-read timer.
    OPERATION_WAIT_RECHECK_MS: '600000',
  });
}
