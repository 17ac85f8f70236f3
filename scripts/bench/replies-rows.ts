// Rows of the reply loop (issue 28), on embedded PGlite and, when DATABASE_URL is set, on PostgreSQL, each
// on a fresh database staged by replies-setup.ts: inbound messages synced and classified per second against
// the plain fetch of the same messages (replies-sync.ts), and the latency from a reply at the fake Google to
// its enrollment stopped, by the minute sync and by the pre-send thread check (replies-latency.ts), each
// against the plain read of what it had to read. Every ratio's two sides come from the same run.
import { measureSync, medianMs, type SyncResult } from './replies-sync.ts';
import { minuteSyncLatency, preSendLatency, type LatencySamples } from './replies-latency.ts';
import { openRepliesStage } from './replies-setup.ts';
import type { RowResult } from './row-runner.ts';
import { median, quantile } from './stats.ts';

export interface RepliesSettings {
  /** Inbound messages per sync round, in `threads` of our threads (fresh threads each round). */
  messages: number;
  threads: number;
  syncRounds: number;
  /** Latency samples of each kind, after `warmupSamples` thrown away. */
  samples: number;
  warmupSamples: number;
  logLevel: string;
}

export interface RepliesResult {
  rows: RowResult[];
  notes: string[];
  failed: boolean;
}

/** The minute sweep's mean wait: a reply lands uniformly within the minute between two ticks. */
export const MEAN_TICK_WAIT_MS = 30_000;

export const repliesSettings = (quick: boolean, logLevel: string): RepliesSettings =>
  quick
    ? { messages: 1000, threads: 200, syncRounds: 1, samples: 15, warmupSamples: 3, logLevel }
    : { messages: 1000, threads: 200, syncRounds: 3, samples: 60, warmupSamples: 5, logLevel };

const count = (n: number) => n.toLocaleString('en');
const labels = {
  sync: (db: string, s: RepliesSettings) =>
    `inbound messages/s synced + classified, live Gmail (read_replies) at a fake over HTTP (${count(s.messages)} in ${count(s.threads)} threads) ÷ plain fetch of the same messages/s (${db})`,
  minute: (db: string) =>
    `reply → enrollment stopped by the minute sync: the tick's processing, median ÷ plain history.list + messages.get of the reply (${db})`,
  preSend: (db: string) =>
    `reply just before a due follow-up → enrollment stopped by the pre-send check: send attempt, median ÷ plain threads.get (${db})`,
};

export async function repliesRows(
  settings: RepliesSettings,
  databaseUrl: string | undefined,
  progress: (line: string) => void,
): Promise<RepliesResult> {
  const result: RepliesResult = { rows: [], notes: [], failed: false };
  const databases: Array<[string, string | undefined]> = [
    ['PGlite', undefined],
    ...(databaseUrl ? [['PostgreSQL', databaseUrl] as [string, string]] : []),
  ];
  for (const [name, url] of databases) {
    try {
      result.rows.push(...(await measureOn(name, url, settings, progress, result.notes)));
    } catch (error) {
      result.failed = true;
      result.rows.push(
        missing(labels.sync(name, settings)),
        missing(labels.minute(name)),
        missing(labels.preSend(name)),
      );
      result.notes.push(`Reply rows on ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (!databaseUrl) result.notes.push('Reply rows on PostgreSQL skipped: no DATABASE_URL.');
  result.notes.push(
    `The minute sync's full latency from a reply to the stop is the wait for the next tick (uniform over the minute: ${MEAN_TICK_WAIT_MS / 1000} s on average, 60 s at worst) plus pg-boss picking the job up plus the processing measured here; the pre-send check has no wait, but only runs when a follow-up is due.`,
  );
  return result;
}

async function measureOn(
  name: string,
  url: string | undefined,
  s: RepliesSettings,
  progress: (line: string) => void,
  notes: string[],
): Promise<RowResult[]> {
  const perLatency = s.samples + s.warmupSamples;
  const leads = s.threads * s.syncRounds + 2 * perLatency;
  progress(`replies on ${name}: staging ${count(leads)} leads written to once`);
  const stage = await openRepliesStage(url, leads, s.logLevel, progress);
  try {
    const all = stage.conversations;
    const syncThreads = all.slice(0, s.threads * s.syncRounds);
    const minuteThreads = all.slice(syncThreads.length, syncThreads.length + perLatency);
    const preSendThreads = all.slice(syncThreads.length + perLatency);
    progress(`replies on ${name}: syncing ${count(s.messages)} inbound messages × ${s.syncRounds} rounds`);
    const sync = await measureSync(stage, syncThreads, {
      messages: s.messages,
      threads: s.threads,
      rounds: s.syncRounds,
    });
    progress(`replies on ${name}: ${perLatency} replies stopped by the minute sync`);
    const minute = await minuteSyncLatency(stage, minuteThreads, s.warmupSamples);
    progress(`replies on ${name}: ${perLatency} replies stopped by the pre-send check`);
    const preSend = await preSendLatency(stage, preSendThreads, s.warmupSamples);
    notes.push(syncNote(name, sync));
    return [
      syncRow(labels.sync(name, s), sync),
      minuteRow(labels.minute(name), minute),
      latencyRow(labels.preSend(name), preSend),
    ];
  } finally {
    await stage.close();
  }
}

function syncRow(label: string, r: SyncResult): RowResult {
  const rate = (ms: number) => r.messages / (ms / 1000);
  const sync = rate(medianMs(r.rounds, 'syncMs'));
  const plain = rate(medianMs(r.rounds, 'plainMs'));
  const ratios = r.rounds.map((x) => x.plainMs / x.syncMs);
  return {
    label,
    a: `${count(Math.round(sync))} messages/s`,
    b: `${count(Math.round(plain))} messages/s`,
    ratio: sync / plain,
    spread: r.rounds.length > 1 ? [quantile(ratios, 0.25), quantile(ratios, 0.75)] : undefined,
  };
}

function syncNote(name: string, r: SyncResult): string {
  const syncMs = medianMs(r.rounds, 'syncMs');
  const readMs = medianMs(r.rounds, 'readMs');
  return `${name} reply sync: ${count(r.messages)} messages in ${(syncMs / 1000).toFixed(1)} s (median over ${r.rounds.length} round(s), ${r.runs.join('/')} sync run(s) each), ${(readMs / 1000).toFixed(1)} s of it (${((100 * readMs) / syncMs).toFixed(0)}%) inside the Gmail reader's calls (access token, HTTP, parsing), the rest recording (one transaction per message: match, classify, insert, effect, event); the plain fetch took ${(medianMs(r.rounds, 'plainMs') / 1000).toFixed(1)} s.`;
}

const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

function latencyRow(label: string, r: LatencySamples, extra = ''): RowResult {
  const perSample = r.ms.map((value, i) => value / r.plainMs[i]);
  return {
    label,
    a: `${ms(median(r.ms))} (p95 ${ms(quantile(r.ms, 0.95))}, n ${r.ms.length})${extra}`,
    b: `${ms(median(r.plainMs))} (p95 ${ms(quantile(r.plainMs, 0.95))})`,
    ratio: median(r.ms) / median(r.plainMs),
    spread: [quantile(perSample, 0.25), quantile(perSample, 0.75)],
  };
}

function minuteRow(label: string, r: LatencySamples): RowResult {
  const expected = (MEAN_TICK_WAIT_MS + median(r.ms)) / 1000;
  return latencyRow(label, r, `; ≈ ${expected.toFixed(1)} s from the reply with the minute schedule's mean wait`);
}

const missing = (label: string): RowResult => ({ label, a: 'failed (see notes)', b: '—', ratio: Number.NaN });
