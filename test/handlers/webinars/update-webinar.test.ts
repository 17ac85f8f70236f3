// update_webinar and the updated invitation: every change a registrant's calendar shows (time, duration, time
// zone, title, description, meeting) mails each registrant one METHOD:REQUEST with the same UID, a higher
// SEQUENCE and the same join link; a change they cannot see (capacity) or a patch that changes nothing
// mails nobody; the same update is never sent twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { json, readyWorkspace, type Workspace } from '../sequences/sequence-fixtures.ts';
import {
  addWebinarRegistrants,
  icsProps,
  joinLinkIn,
  sandboxMail,
  scheduleWebinar,
  sendMail,
  type ReceivedMail,
} from './webinar-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let ws: Workspace;
let now = new Date('2026-11-24T10:00:00Z');

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', clock: { now: () => now } }));
  ws = await readyWorkspace(t, []);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const patch = (id: string, body: Record<string, unknown>) =>
  json(t.request(`/api/v1/webinars/${id}`, { method: 'PATCH', token: ws.owner.token, json: body }));

/** A webinar with one registrant whose confirmation went out; returns it and that confirmation. */
async function confirmedWebinar(email: string): Promise<{ webinar: any; confirmation: ReceivedMail }> {
  const webinar = await scheduleWebinar(t, ws);
  await addWebinarRegistrants(t, ws, webinar.id, [{ email }]);
  await sendMail(t);
  const confirmation = (await sandboxMail(t, ws.owner.workspaceId)).find((m) => m.to === email) as ReceivedMail;
  // Later mail is later on the clock, so the mailbox lists it after the confirmation.
  now = new Date(now.getTime() + 60_000);
  return { webinar, confirmation };
}

const mailTo = async (email: string) => (await sandboxMail(t, ws.owner.workspaceId)).filter((m) => m.to === email);

const visibleChanges: Array<[string, Record<string, unknown>, Record<string, string>]> = [
  ['start_at', { start_at: '2026-11-27T09:30:00.000Z' }, { DTSTART: '20261127T103000' }],
  ['duration_minutes', { duration_minutes: 90 }, { DTEND: '20261126T173000' }],
  ['timezone', { timezone: 'America/New_York' }, { DTSTART: '20261126T100000' }],
  ['title', { title: 'Pipeline clinic, part 2' }, { SUMMARY: 'Pipeline clinic\\, part 2' }],
  ['description', { description: 'Now with a guest.' }, {}],
  ['meeting_url', { meeting_url: 'https://meet.example/new-room' }, {}],
];

describe('update_webinar re-invites registrants', () => {
  it.each(visibleChanges)('sends one updated invitation when %s changes', async (field, body, shown) => {
    const email = `${field.replace('_', '-')}@example.com`;
    const { webinar, confirmation } = await confirmedWebinar(email);
    const updated = await patch(webinar.id, body);
    expect(updated.invitation_sequence).toBe(1);
    expect(await sendMail(t)).toBe(1);
    expect(await sendMail(t)).toBe(0);
    const [, update, ...more] = await mailTo(email);
    expect(more).toEqual([]);
    expect(update.subject).toBe(`Updated: ${updated.title}`);
    expect(update.calendarMethod).toBe('REQUEST');
    const before = icsProps(confirmation.calendar as string);
    const after = icsProps(update.calendar as string);
    expect(after).toMatchObject({ METHOD: 'REQUEST', UID: before.UID, SEQUENCE: '1', ...shown });
    // The join link is the registrant's own and does not change; it still leads to the (new) meeting.
    expect(joinLinkIn(update.text)).toBe(joinLinkIn(confirmation.text));
    expect(after.URL).toBe(before.URL);
    const joined = await fetch(joinLinkIn(update.text), { redirect: 'manual' });
    expect(joined.headers.get('location')).toBe(updated.meeting_url);
    if (field === 'description') expect(update.text).toContain('Now with a guest.');
    if (field === 'timezone') expect(update.calendar).toContain('DTSTART;TZID=America/New_York:20261126T100000');
  });

  it('sends nothing when only the capacity changes, or when a patch repeats the current values', async () => {
    const { webinar } = await confirmedWebinar('quiet@example.com');
    expect((await patch(webinar.id, { capacity: 50 })).invitation_sequence).toBe(0);
    expect(
      (await patch(webinar.id, { title: webinar.title, start_at: webinar.start_at, meeting_url: webinar.meeting_url }))
        .invitation_sequence,
    ).toBe(0);
    expect(await sendMail(t)).toBe(0);
    expect(await mailTo('quiet@example.com')).toHaveLength(1);
    const events = await json(t.request('/api/v1/events?limit=100', { token: ws.owner.token }));
    const mine = events.data.filter((e: any) => e.type === 'webinar.updated' && e.data.id === webinar.id);
    expect(mine.map((e: any) => e.data.invitation_changed)).toEqual([false, false]);
  });

  it('sends a registrant added after a change the current invitation only', async () => {
    const { webinar } = await confirmedWebinar('early@example.com');
    await patch(webinar.id, { title: 'Renamed clinic' });
    await addWebinarRegistrants(t, ws, webinar.id, [{ email: 'late@example.com' }]);
    expect(await sendMail(t)).toBe(2);
    const [late, ...more] = await mailTo('late@example.com');
    expect(more).toEqual([]);
    expect(late.subject).toBe("You're registered: Renamed clinic");
    expect(icsProps(late.calendar as string)).toMatchObject({ SEQUENCE: '1', SUMMARY: 'Renamed clinic' });
  });
});
