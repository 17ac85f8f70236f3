// The reminders' delayed jobs in pg-boss: one per webinar and reminder time, started at that time, queued
// with the registration (a time change queues new ones; the old ones find nothing due); a registration
// inside the last 24 hours queues only the 1 h reminder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { json, readyWorkspace, type Workspace } from '../sequences/sequence-fixtures.ts';
import { addWebinarRegistrants, scheduleWebinar } from './webinar-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let ws: Workspace;
const now = new Date('2026-11-24T10:00:00Z');

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', clock: { now: () => now } }));
  ws = await readyWorkspace(t, []);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

async function reminderJobs(webinarId: string): Promise<Array<[string, string]>> {
  const rows = await t.db.sql.unsafe(
    `select data, start_after from ${t.jobsSchema}.job where name = 'webinars.remind' order by start_after`,
  );
  return rows
    .filter((r) => r.data.webinar_id === webinarId)
    .map((r) => [r.data.kind, new Date(r.start_after).toISOString()]);
}

describe('reminder jobs', () => {
  it('queues one delayed job per reminder time, however many register, and new ones when the time moves', async () => {
    const webinar = await scheduleWebinar(t, ws);
    await addWebinarRegistrants(t, ws, webinar.id, [{ email: 'a@example.com' }, { email: 'b@example.com' }]);
    await addWebinarRegistrants(t, ws, webinar.id, [{ email: 'c@example.com' }]);
    expect(await reminderJobs(webinar.id)).toEqual([
      ['reminder_24h', '2026-11-25T15:00:00.000Z'],
      ['reminder_1h', '2026-11-26T14:00:00.000Z'],
    ]);
    await json(
      t.request(`/api/v1/webinars/${webinar.id}`, {
        method: 'PATCH',
        token: ws.owner.token,
        json: { start_at: '2026-11-27T15:00:00Z' },
      }),
    );
    expect((await reminderJobs(webinar.id)).map(([, at]) => at)).toEqual([
      '2026-11-25T15:00:00.000Z',
      '2026-11-26T14:00:00.000Z',
      '2026-11-26T15:00:00.000Z',
      '2026-11-27T14:00:00.000Z',
    ]);
  });

  it('queues only the 1 h reminder for a webinar less than a day away', async () => {
    const webinar = await scheduleWebinar(t, ws, { start_at: '2026-11-24T20:00:00Z' });
    await addWebinarRegistrants(t, ws, webinar.id, [{ email: 'soon@example.com' }]);
    expect(await reminderJobs(webinar.id)).toEqual([['reminder_1h', '2026-11-24T19:00:00.000Z']]);
  });
});
