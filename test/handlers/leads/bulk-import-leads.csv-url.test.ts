// bulk_import_leads from csv_url servers and files as they are found in the wild (issue 26): a server
// that ends the body by closing the connection (HTTP/1.0, as `python3 -m http.server`), with several
// imports at once and bodies larger than the socket buffers: the process must live and every import
// count right. A file with a NUL, bytes that are not UTF-8 and a quoted CRLF: the bad rows are
// reported with row and column, the rest imports. The operation's progress ends at the file's total.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignupResult, type TestApp } from '../../helpers/app.ts';
import { serveThenClose, type ClosingServer } from './closing-csv-server.ts';
import { expectedCounts, leadsCsv } from './held-csv.ts';

const terminal = ['succeeded', 'failed', 'cancelled'];
let t: TestApp;
let owner: SignupResult;
const servers: ClosingServer[] = [];

beforeAll(async () => {
  t = await createTestApp({ jobs: 'work', env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
  owner = await t.signup();
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await t?.close();
});

async function importFrom(url: string): Promise<any> {
  const res = await t.request('/api/v1/leads/imports', { method: 'POST', token: owner.token, json: { csv_url: url } });
  expect(res.status).toBe(202);
  let op = (await res.json()) as { id: string; status: string };
  while (!terminal.includes(op.status))
    op = (await (
      await t.request(`/api/v1/operations/${op.id}?wait_seconds=20`, { token: owner.token })
    ).json()) as typeof op;
  return op;
}

const getJson = async (path: string): Promise<any> => (await t.request(path, { token: owner.token })).json();

describe('bulk_import_leads from a csv_url', () => {
  it('imports from servers that end the body by closing the connection, several at once, without taking the process down', async () => {
    // About 4 MB each (a long company name on every row): far more than the socket buffers, so the
    // server is held back by the import's reading, and the reading by the import's writes.
    const files = ['close-a.example', 'close-b.example', 'close-c.example'].map((domain) => leadsCsv(domain, 40_003));
    const company = 'Wholesale Cargo Bicycles and Trailers of the Northern Valleys Ltd';
    for (const csv of files) {
      const text = `email,first_name,company\n${csv.lines
        .slice(1)
        .map((line) => `${line},${company}\n`)
        .join('')}`;
      servers.push(await serveThenClose(Buffer.from(text)));
    }
    const ops = await Promise.all(servers.map((server) => importFrom(server.url)));
    for (const [i, op] of ops.entries()) {
      expect(op.status).toBe('succeeded');
      const imp = await getJson(`/api/v1/leads/imports/${op.resource.id}`);
      expect(imp).toMatchObject({ status: 'completed_with_errors', counts: expectedCounts(files[i]) });
    }
    // Each file was sent whole at least once. A run whose job lease ran out (three imports behind one embedded
    // connection on a machine running both CI legs: all three once) is aborted, its download with it, and its
    // retry reads the file again from the checkpoint; the counts above are exact either way.
    for (const server of servers) expect(server.answered).toBeGreaterThanOrEqual(1);
    expect((await t.request('/healthz')).status).toBe(200);
  }, 240_000);

  it('reports a row with a NUL and a row that is not UTF-8, naming row and column, and imports the rest', async () => {
    const body = Buffer.concat([
      Buffer.from('email,first_name,company\n'),
      Buffer.from('ok1@mixed.example,Ann,Plain\n'),
      Buffer.from('nul@mixed.example,N\u0000L,Plain\n'),
      Buffer.from('latin@mixed.example,Bob,Caf'),
      Buffer.from([0xe9]),
      Buffer.from(' Noir\n'),
      Buffer.from('crlf@mixed.example,Cy,"Line one\r\nLine two"\r\n'),
      Buffer.from('ok2@mixed.example,Di,Plain\n'),
    ]);
    const server = await serveThenClose(body);
    servers.push(server);
    const op = await importFrom(server.url);
    expect(op.status).toBe('succeeded');
    const imp = await getJson(`/api/v1/leads/imports/${op.resource.id}`);
    expect(imp).toMatchObject({ status: 'completed_with_errors', counts: { total: 5, created: 3, invalid: 2 } });
    const errors = await getJson(`/api/v1/leads/imports/${op.resource.id}/errors`);
    expect(errors.data.map((e: any) => [e.row, e.line, e.column, e.code])).toEqual([
      [2, 3, 'first_name', 'invalid_character'],
      [3, 4, 'company', 'invalid_encoding'],
    ]);
    const [lead] = await t.db
      .sql`select company from leads where workspace_id = ${owner.workspaceId} and email = 'crlf@mixed.example'`;
    expect(lead.company).toBe('Line one\r\nLine two');
  });

  it("ends the operation's progress at the file's total when that is not a multiple of the batch size", async () => {
    const csv = leadsCsv('progress.example', 12_345);
    const server = await serveThenClose(Buffer.from(`${csv.lines.join('\n')}\n`));
    servers.push(server);
    const op = await importFrom(server.url);
    expect(op.status).toBe('succeeded');
    expect(op.progress).toEqual({ done: 12_345, total: 12_345 });
    expect((await getJson(`/api/v1/leads/imports/${op.resource.id}`)).counts).toEqual(expectedCounts(csv));
  });
});
