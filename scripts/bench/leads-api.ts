// A csv_url import through the public API, as a client runs one: POST /api/v1/leads/imports, follow
// the operation with waiting GETs until it ends, then read the import and check every row was created.
// Each answer of a waiting GET is a change (progress of a batch, the end), timed for the notes.

export interface ImportRun {
  /** Milliseconds from sending the POST to seeing the operation succeeded. */
  totalMs: number;
  /** From the POST to the first answer showing the operation running (the job picked up). */
  runningMs: number;
  /** Answer time of the POST alone. */
  postMs: number;
  /** Every change seen: milliseconds after the POST and the progress then. */
  changes: Array<{ at: number; done: number | null }>;
  counts: { total: number; created: number; updated: number; skipped_duplicate: number; invalid: number };
}

interface OperationBody {
  id: string;
  status: string;
  progress: { done: number | null; total: number | null };
  resource: { type: string; id: string } | null;
  error: unknown;
}

async function call<T>(
  url: string,
  token: string,
  init: { method?: string; body?: unknown; want: number },
): Promise<T> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${token}`,
      ...(init.body !== undefined && { 'Content-Type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  if (res.status !== init.want)
    throw new Error(`${init.method ?? 'GET'} ${new URL(url).pathname}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Imports `csvUrl` and fails unless the operation succeeds with `rows` leads created. */
export async function importCsvUrl(baseUrl: string, token: string, csvUrl: string, rows: number): Promise<ImportRun> {
  const started = performance.now();
  let op = await call<OperationBody>(`${baseUrl}/api/v1/leads/imports`, token, {
    method: 'POST',
    body: { csv_url: csvUrl },
    want: 202,
  });
  const postMs = performance.now() - started;
  const changes: ImportRun['changes'] = [];
  let runningMs = Number.NaN;
  while (op.status !== 'succeeded' && op.status !== 'failed' && op.status !== 'cancelled') {
    op = await call<OperationBody>(`${baseUrl}/api/v1/operations/${op.id}?wait_seconds=30`, token, { want: 200 });
    const at = performance.now() - started;
    if (op.status !== 'queued' && Number.isNaN(runningMs)) runningMs = at;
    changes.push({ at, done: op.progress.done });
  }
  const totalMs = performance.now() - started;
  if (op.status !== 'succeeded' || !op.resource)
    throw new Error(`import operation ${op.id} ended ${op.status}: ${JSON.stringify(op.error).slice(0, 300)}`);
  const imp = await call<{ status: string; counts: ImportRun['counts'] }>(
    `${baseUrl}/api/v1/leads/imports/${op.resource.id}`,
    token,
    { want: 200 },
  );
  if (imp.counts.created !== rows)
    throw new Error(
      `import ${op.resource.id} (${imp.status}) created ${imp.counts.created} of ${rows} rows: ${JSON.stringify(imp.counts)}`,
    );
  return { totalMs, runningMs, postMs, changes, counts: imp.counts };
}
