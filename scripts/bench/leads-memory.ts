// Peak resident memory of the service while it imports a large csv_url, against its own idle RSS:
// the service runs in a child process (serve-import.ts) so that its memory is its own, and this
// process serves the generated CSV and reads the child's RSS from /proc every SAMPLE_MS.
import { fileURLToPath } from 'node:url';
import { createCredentials } from './credentials.ts';
import { importCsvUrl, type ImportRun } from './leads-api.ts';
import { startCsvServer, type CsvServer } from './leads-csv.ts';
import { readRss, resetPeak, sampleRss } from './rss.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { median } from './stats.ts';

export const SAMPLE_MS = 100;
export const IDLE_MS = 2_000;

export interface MemoryOptions {
  rows: number;
  databaseUrl: string | undefined;
  logLevel: string;
}

export interface MemoryResult {
  rows: number;
  /** Median RSS over the idle seconds after sign-up, MB. */
  idleMb: number;
  /** Highest RSS during the import: sampled, or the kernel's high-water mark when it could be reset. */
  peakMb: number;
  sampledPeakMb: number;
  /** Whether VmHWM was reset at the start of the import (and so counted in peakMb). */
  highWaterMark: boolean;
  /** RSS when the import had succeeded, MB. */
  afterMb: number;
  /** The sampled RSS at the end of each quarter of the import, MB: a plateau or a climb. */
  quarters: number[];
  samples: number;
  run: ImportRun;
  database: string;
}

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export async function measureImportMemory(options: MemoryOptions): Promise<MemoryResult> {
  let csv: CsvServer | undefined;
  let child: ServerProcess | undefined;
  try {
    csv = await startCsvServer();
    child = await startServerProcess('import service', fileURLToPath(new URL('./serve-import.ts', import.meta.url)), {
      cwd: repoRoot,
      env: { BENCH_SERVICE: JSON.stringify({ databaseUrl: options.databaseUrl, logLevel: options.logLevel }) },
    });
    const { pid } = child;
    const { token } = await createCredentials(child.url);
    const idle = sampleRss(pid, SAMPLE_MS);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const idleMb = median(idle.stop());
    const highWaterMark = resetPeak(pid);
    const during = sampleRss(pid, SAMPLE_MS);
    const run = await importCsvUrl(child.url, token, csv.url(`mem-${pid}`, options.rows), options.rows).finally(() =>
      during.stop(),
    );
    const samples = during.stop();
    const { rss: afterMb, hwm } = readRss(pid);
    const sampledPeakMb = Math.max(...samples);
    return {
      rows: options.rows,
      idleMb,
      peakMb: highWaterMark ? Math.max(sampledPeakMb, hwm) : sampledPeakMb,
      sampledPeakMb,
      highWaterMark,
      afterMb,
      quarters: [1, 2, 3, 4].map(
        (q) => samples[Math.min(samples.length - 1, Math.round((q / 4) * (samples.length - 1)))],
      ),
      samples: samples.length,
      run,
      database: child.info.database ?? 'unknown',
    };
  } finally {
    await child?.stop();
    await csv?.close();
  }
}
