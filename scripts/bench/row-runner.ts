// The seam every benchmark row goes through. A row group contributes targets (one request against
// one server) and ratio rows naming two of them; the runner measures all targets of all groups in
// interleaved rounds (A, B, C, B, C, A, C, A, B, ...), so machine noise hits every target alike,
// and each row is the ratio of the two targets' median requests/sec. To add rows, write a module returning
// a RowGroup (see http-rows.ts, auth-rows.ts) and list it in scripts/bench.ts.
import { load, type RequestSpec } from './load.ts';
import type { ServerProcess } from './server-process.ts';
import { median, quantile } from './stats.ts';

export interface Target {
  /** Unique across all groups; rows refer to targets by this name. */
  name: string;
  server: ServerProcess;
  request: RequestSpec;
  /** Checks one answer before measuring (autocannon only sees status codes); returns a complaint or undefined. */
  check?: (status: number, body: string) => string | undefined;
}

export interface Goal {
  op: '>=' | '<=';
  value: number;
}

export interface RatioRow {
  label: string;
  /** Target names: the ratio is A / B of median requests/sec. */
  a: string;
  b: string;
  goal?: Goal;
}

export interface RowGroup {
  targets: Target[];
  rows: RatioRow[];
  /** Lines for the report, for example why a group contributed no rows. */
  notes?: string[];
}

export interface RoundOptions {
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  progress?: (line: string) => void;
}

export interface TargetStats {
  name: string;
  requestsPerSecond: number[];
  /** Server CPU (user + system) per request, in microseconds, one value per round. */
  cpuMicrosPerRequest: number[];
  medianRequestsPerSecond: number;
  medianCpuMicrosPerRequest: number;
}

/** Sends one request to every target and fails unless each answers 2xx and passes its check. */
export async function preflight(targets: readonly Target[]): Promise<void> {
  for (const t of targets) {
    const { method, path, headers, body, expectedStatus, paths } = t.request;
    const redirect = expectedStatus === undefined ? 'follow' : 'manual';
    const res = await fetch(t.server.url + (paths?.[0] ?? path), { method, headers, body, redirect });
    const text = await res.text();
    const wrong = expectedStatus === undefined ? res.status >= 300 : res.status !== expectedStatus;
    const complaint = wrong ? `status ${res.status}` : t.check?.(res.status, text);
    if (complaint) throw new Error(`target "${t.name}" (${method} ${path}): ${complaint}: ${text.slice(0, 300)}`);
  }
}

export async function runInterleaved(
  targets: readonly Target[],
  options: RoundOptions,
): Promise<Map<string, TargetStats>> {
  const stats = new Map<string, TargetStats>(
    targets.map((t) => [
      t.name,
      {
        name: t.name,
        requestsPerSecond: [],
        cpuMicrosPerRequest: [],
        medianRequestsPerSecond: 0,
        medianCpuMicrosPerRequest: 0,
      },
    ]),
  );
  const loadOptions = { connections: options.connections };
  // Warm-up (JIT, caches, connection pools), not counted.
  if (options.warmupSeconds > 0) {
    for (const t of targets)
      await load(t.server.url, t.request, { ...loadOptions, durationSeconds: options.warmupSeconds });
  }
  for (let round = 1; round <= options.rounds; round += 1) {
    // Each round starts one target later (A,B,C / B,C,A / C,A,B …), so no target always follows the
    // same one: a run leaves state behind (heap, caches) that the next run on that server pays for.
    const shift = (round - 1) % targets.length;
    for (const t of [...targets.slice(shift), ...targets.slice(0, shift)]) {
      const cpuBefore = await t.server.cpuMicros();
      const result = await load(t.server.url, t.request, { ...loadOptions, durationSeconds: options.durationSeconds });
      const cpu = (await t.server.cpuMicros()) - cpuBefore;
      const s = stats.get(t.name)!;
      s.requestsPerSecond.push(result.requestsPerSecond);
      s.cpuMicrosPerRequest.push(cpu / result.requests);
    }
    options.progress?.(`round ${round}/${options.rounds} done`);
  }
  for (const s of stats.values()) {
    s.medianRequestsPerSecond = median(s.requestsPerSecond);
    s.medianCpuMicrosPerRequest = median(s.cpuMicrosPerRequest);
  }
  return stats;
}

export interface RowResult {
  label: string;
  a: string;
  b: string;
  ratio: number;
  /** The same comparison by server CPU per request (B's CPU / A's CPU), or by child CPU time for timing rows. */
  cpuRatio?: number;
  /** Interquartile range of the ratios of the same round (A_i / B_i): how much noise moved this row. */
  spread?: [number, number];
  goal?: Goal;
  met?: boolean;
}

export function meets(ratio: number, goal: Goal | undefined): boolean | undefined {
  if (!goal) return undefined;
  return goal.op === '>=' ? ratio >= goal.value : ratio <= goal.value;
}

export function ratioRows(rows: readonly RatioRow[], stats: Map<string, TargetStats>): RowResult[] {
  return rows.map((row) => {
    const a = stats.get(row.a);
    const b = stats.get(row.b);
    if (!a || !b) throw new Error(`row "${row.label}" names an unknown target`);
    const ratio = a.medianRequestsPerSecond / b.medianRequestsPerSecond;
    const perRound = a.requestsPerSecond.map((value, i) => value / b.requestsPerSecond[i]);
    return {
      label: row.label,
      a: `${Math.round(a.medianRequestsPerSecond)} req/s`,
      b: `${Math.round(b.medianRequestsPerSecond)} req/s`,
      ratio,
      cpuRatio: b.medianCpuMicrosPerRequest / a.medianCpuMicrosPerRequest,
      spread: [quantile(perRound, 0.25), quantile(perRound, 0.75)],
      goal: row.goal,
      met: meets(ratio, row.goal),
    };
  });
}
