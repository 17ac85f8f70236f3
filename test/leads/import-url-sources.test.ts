// bulk_import_leads from csv_url servers as they are found in the wild (issue 26): one that ends the
// body by closing the connection (HTTP/1.0, as `python3 -m http.server`), with several imports at once
// and bodies larger than the socket buffers; the process must live and every import must count right.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignupResult, type TestApp } from '../helpers/app.ts';
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
  while (!terminal.includes(op.status)) op = (await (await t.request(`/api/v1/operations/${op.id}?wait_seconds=20`, { token: owner.token })).json()) as typeof op;
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
      const text = `email,first_name,company\n${csv.lines.slice(1).map((line) => `${line},${company}\n`).join('')}`;
      servers.push(await serveThenClose(Buffer.from(text)));
    }
    const ops = await Promise.all(servers.map((server) => importFrom(server.url)));
    for (const [i, op] of ops.entries()) {
      expect(op.status).toBe('succeeded');
      const imp = await getJson(`/api/v1/leads/imports/${op.resource.id}`);
      expect(imp).toMatchObject({ status: 'completed_with_errors', counts: expectedCounts(files[i]) });
    }
    expect(servers.map((s) => s.answered)).toEqual([1, 1, 1]);
    expect((await t.request('/healthz')).status).toBe(200);
  }, 240_000);
});
