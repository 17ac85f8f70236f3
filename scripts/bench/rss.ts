// Resident memory of another process, read from /proc/<pid>/status (Linux): sampled on a timer from
// the bench's process, so a busy child is measured without answering anything. The kernel's own
// high-water mark (VmHWM), reset through /proc/<pid>/clear_refs, catches a peak between two samples.
import { readFileSync, writeFileSync } from 'node:fs';

const MB = 1024 * 1024;

/** VmRSS and VmHWM of `pid`, in MB. */
export function readRss(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kB = (field: string) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
    return (Number(match[1]) * 1024) / MB;
  };
  return { rss: kB('VmRSS'), hwm: kB('VmHWM') };
}

/** Resets the process's VmHWM to its current RSS; false where the kernel does not allow it. */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export interface RssSampler {
  /** Stops sampling (once; later calls change nothing); the samples in MB, in order. */
  stop(): number[];
}

export function sampleRss(pid: number, everyMs: number): RssSampler {
  const samples: number[] = [readRss(pid).rss];
  const timer = setInterval(() => {
    // A child that died is reported by the import it was running; the sampler just stops counting.
    try {
      samples.push(readRss(pid).rss);
    } catch {
      clearInterval(timer);
    }
  }, everyMs);
  let stopped = false;
  return {
    stop() {
      if (stopped) return samples;
      stopped = true;
      clearInterval(timer);
      try {
        samples.push(readRss(pid).rss);
      } catch {
        // Gone: the samples so far stand.
      }
      return samples;
    },
  };
}
