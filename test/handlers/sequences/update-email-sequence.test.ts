// Changing a draft's sender looks the connector up inside the edit's transaction. It used to look it up on the
// pool instead: the embedded database's one connection (and PostgreSQL's ten, under concurrency) waited for
// itself, and the whole service stopped answering. The time limit only turns such a hang into a failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { json, readyWorkspace, twoSteps, type Workspace } from './sequence-fixtures.ts';

const HANG = 30_000;
const CONCURRENT = 20;

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let ws: Workspace;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort());
  ws = await readyWorkspace(t, []);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const patch = (id: string, revision: number, body: unknown) =>
  t.request(`/api/v1/sequences/${id}`, {
    method: 'PATCH',
    token: ws.owner.token,
    headers: { 'if-match': `"${revision}"` },
    json: body,
  });

describe('update_email_sequence sender_connector_id', () => {
  it(`sets the workspace's connector as sender on ${CONCURRENT} drafts at once and keeps serving`, {
    timeout: HANG,
  }, async () => {
    const drafts = [];
    for (let i = 0; i < CONCURRENT; i += 1)
      drafts.push(
        await json(
          t.request('/api/v1/sequences', { method: 'POST', token: ws.owner.token, json: twoSteps(null) }),
          201,
        ),
      );

    const updated = await Promise.all(
      drafts.map((d) => json(patch(d.id, d.revision, { sender_connector_id: ws.connector.id }))),
    );
    expect(updated.map((s) => s.sender_connector_id)).toEqual(drafts.map(() => ws.connector.id));

    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const read = await json(
      fetch(`${server.url}/api/v1/sequences/${drafts[0].id}`, {
        headers: { authorization: `Bearer ${ws.owner.token}` },
      }),
    );
    expect(read).toMatchObject({ sender_connector_id: ws.connector.id, revision: drafts[0].revision + 1 });
  });

  it("answers 404 for another workspace's connector and leaves the draft as it was", { timeout: HANG }, async () => {
    const other = await readyWorkspace(t, []);
    const draft = await json(
      t.request('/api/v1/sequences', { method: 'POST', token: ws.owner.token, json: twoSteps(null) }),
      201,
    );
    const refused = await patch(draft.id, draft.revision, { sender_connector_id: other.connector.id });
    expect(refused.status).toBe(404);
    const read = await json(t.request(`/api/v1/sequences/${draft.id}`, { token: ws.owner.token }));
    expect(read).toMatchObject({ sender_connector_id: null, revision: draft.revision });
  });
});
