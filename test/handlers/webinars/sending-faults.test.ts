// "Never sent twice" under faults: two senders running at once each take different mail, and mail a sender
// took before it died is marked uncertain after the stale delay and never resent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { takeDueMailAcrossWorkspaces } from '../../../src/handlers/webinars/webinar-mail-data.ts';
import { json, readyWorkspace } from '../sequences/sequence-fixtures.ts';
import { addWebinarRegistrants, sandboxMail, scheduleWebinar, sendMail } from './webinar-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let now = new Date('2026-11-24T10:00:00Z');

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', clock: { now: () => now } }));
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

describe('webinar mail under faults', () => {
  it('sends each mail once when two senders run at the same time', async () => {
    const ws = await readyWorkspace(t, []);
    const webinar = await scheduleWebinar(t, ws);
    await addWebinarRegistrants(
      t,
      ws,
      webinar.id,
      Array.from({ length: 6 }, (_, i) => ({ email: `p${i}@example.com` })),
    );
    const [a, b] = await Promise.all([sendMail(t), sendMail(t)]);
    expect(a + b).toBe(6);
    const mail = await sandboxMail(t, ws.owner.workspaceId);
    expect(mail.map((m) => m.to).sort()).toEqual(Array.from({ length: 6 }, (_, i) => `p${i}@example.com`));
  });

  it('marks mail a dead sender had taken uncertain, shows it so, and never sends it', async () => {
    const ws = await readyWorkspace(t, []);
    const webinar = await scheduleWebinar(t, ws);
    await addWebinarRegistrants(t, ws, webinar.id, [{ email: 'maybe@example.com' }]);
    const taken = await takeDueMailAcrossWorkspaces(t.db.sql, now, 50);
    expect(taken.map((m) => m.to_email)).toEqual(['maybe@example.com']);
    expect(await sendMail(t)).toBe(0);
    now = new Date(now.getTime() + 10 * 60_000);
    expect(await sendMail(t)).toBe(0);
    const [row] = await t.db.sql<Array<{ status: string }>>`select status from webinar_mail where id = ${taken[0].id}`;
    expect(row.status).toBe('uncertain');
    expect(await sandboxMail(t, ws.owner.workspaceId)).toEqual([]);
    // The API says so: the confirmation may have gone, and it is not retried.
    const listed = await json(t.request(`/api/v1/webinars/${webinar.id}/registrants`, { token: ws.owner.token }));
    expect(listed.data[0].mail[0]).toMatchObject({
      kind: 'confirmation',
      status: 'uncertain',
      sent_at: null,
      reason: 'send_interrupted',
    });
  });
});
