import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { readCsvRows } from '../../../src/handlers/leads/csv-rows.ts';

// What the reader retains, not garbage awaiting collection: the worker process is shared with other test
// files (isolate: false), whose heap decides when V8 collects, so the heap is measured after a full collection.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const retained = () => {
  collect();
  return process.memoryUsage().heapUsed;
};

const ROWS = 200_000;
const notes = 'Met at the trade fair; wants a demo of the reporting module, call back after the budget round. '.repeat(
  3,
);

/** A 200,000-row CSV (about 80 MB) made chunk by chunk as it is read: never held whole. */
async function* generatedCsv(): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  yield encoder.encode('\ufeffEmail;First Name;Last Name;Company;Title;Phone;Notes\r\n');
  for (let start = 0; start < ROWS; start += 500) {
    let chunk = '';
    for (let n = start; n < start + 500; n++) {
      chunk += `lead${n}@company${n % 997}.example;First${n};Last${n};"Company ${n}, Inc.";Head of Sales;+49 30 ${n};"${notes}${n}"\r\n`;
    }
    yield encoder.encode(chunk);
  }
}

describe('readCsvRows memory', () => {
  it('reads 200,000 generated rows in order with a flat heap', async () => {
    const baseline = retained();
    let peak = baseline;
    let expected = 1;
    for await (const item of readCsvRows(generatedCsv())) {
      if (!('row' in item)) continue;
      if (
        !('record' in item) ||
        item.row !== expected ||
        item.line !== expected + 1 ||
        item.record.Email !== `lead${expected - 1}@company${(expected - 1) % 997}.example`
      ) {
        throw new Error(`row ${expected} out of order or wrong: ${JSON.stringify(item)}`);
      }
      if (expected % 10_000 === 0) peak = Math.max(peak, retained());
      expected++;
    }
    expect(expected - 1).toBe(ROWS);
    // Holding the rows retains about 140 MB; streaming retains a chunk and the parser's state.
    expect((peak - baseline) / 2 ** 20).toBeLessThan(50);
  });
});
