// Rows of the idempotency keys (issue 10, section 4): one real write, minting an API key, without a key,
// with a fresh key on every request (claim, run, seal and store), and retried with one key (the replay).
import type { BenchCredentials } from './credentials.ts';
import type { RowGroup } from './row-runner.ts';
import type { ServerProcess } from './server-process.ts';

const names = {
  plain: 'mint (a) no Idempotency-Key',
  fresh: 'mint (b) new Idempotency-Key',
  replay: 'mint (c) replayed Idempotency-Key',
} as const;

export function idempotencyRows(service: ServerProcess, credentials: BenchCredentials): RowGroup {
  const mint = (key?: string) => ({
    method: 'POST' as const,
    path: '/api/v1/api-keys',
    headers: {
      Authorization: `Bearer ${credentials.apiKey}`,
      'Content-Type': 'application/json',
      ...(key === undefined ? {} : { 'Idempotency-Key': key }),
    },
    body: JSON.stringify({ name: 'bench mint' }),
    // autocannon puts a new id in place of `[<id>]` on every request: each one is a first use of its key.
    idReplacement: key?.includes('[<id>]') ?? false,
  });
  const minted = (status: number, body: string) =>
    status === 201 && (JSON.parse(body) as { key?: string }).key ? undefined : 'no key minted';
  return {
    targets: [
      { name: names.plain, server: service, request: mint(), check: minted },
      { name: names.fresh, server: service, request: mint('bench-[<id>]'), check: minted },
      { name: names.replay, server: service, request: mint(`bench-replayed-${process.pid}`), check: minted },
    ],
    rows: [
      { label: 'write with a new `Idempotency-Key` / without (create_api_key)', a: names.fresh, b: names.plain },
      { label: 'replayed `Idempotency-Key` / write without (create_api_key)', a: names.replay, b: names.plain },
    ],
  };
}
