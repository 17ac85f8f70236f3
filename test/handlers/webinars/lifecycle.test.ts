// A webinar from scheduling to its reminders over REST in sandbox mode: registrants added by an agent, the
// confirmation with its calendar invitation, a time change re-inviting with the same UID and a higher
// SEQUENCE, reminders 24 h and 1 h before (each once), the join link, removal and cancellation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { json, readyWorkspace, relogin, type Workspace } from '../sequences/sequence-fixtures.ts';
import {
  addWebinarRegistrants,
  icsProps,
  joinLinkIn,
  sandboxMail,
  scheduleWebinar,
  sendMail,
  START,
} from './webinar-fixtures.ts';

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let now = new Date('2026-11-24T10:00:00Z');
const HOUR = 3_600_000;

beforeAll(async () => {
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'enqueue', clock: { now: () => now } }));
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

async function events(ws: Workspace, prefix: string): Promise<any[]> {
  const page = await json(t.request('/api/v1/events?limit=100', { token: ws.owner.token }));
  return page.data.filter((e: any) => e.type.startsWith(prefix));
}

describe('a webinar from scheduling to reminders', () => {
  let ws: Workspace;
  let webinar: any;
  beforeAll(async () => {
    ws = await readyWorkspace(t);
    webinar = await scheduleWebinar(t, ws);
  });

  it('schedules with the newest connected Gmail as sender and a public registration page', async () => {
    expect(webinar).toMatchObject({
      status: 'scheduled',
      start_at: START,
      timezone: 'Europe/Paris',
      sender_connector_id: ws.connector.id,
      invitation_sequence: 0,
      registered: 0,
    });
    expect(webinar.registration_url).toMatch(new RegExp(`^${server.url}/webinars/wbp_[\\w-]{22}/register$`));
    expect((await events(ws, 'webinar.')).map((e) => e.type)).toEqual(['webinar.scheduled']);
  });

  it('adds registrants with a result per item: added, duplicate, invalid, unknown lead', async () => {
    const result = await addWebinarRegistrants(t, ws, webinar.id, [
      { email: 'Ada@Example.com', first_name: 'Ada', last_name: 'Lovelace' },
      { lead_id: ws.leads[0].id },
      { email: 'ada@example.com' },
      { email: 'not-an-address' },
      { lead_id: 'lead_01jd8x6y5k2r3t4v5w6x7y8z9a' },
    ]);
    expect(result.added).toBe(2);
    expect(result.results.map((r: any) => r.reason ?? r.status)).toEqual([
      'added',
      'added',
      'duplicate',
      'invalid',
      'not_found',
    ]);
    const list = await json(t.request(`/api/v1/webinars/${webinar.id}/registrants`, { token: ws.owner.token }));
    // Registered at one clock reading: in no particular order among themselves.
    expect(list.data.map((r: any) => [r.email, r.lead_id]).sort()).toEqual([
      ['ada@example.com', null],
      ['grace@example.com', ws.leads[0].id],
    ]);
    expect((await events(ws, 'webinar_registrant.')).map((e) => e.type)).toEqual([
      'webinar_registrant.added',
      'webinar_registrant.added',
    ]);
  });

  it('mails each registrant a confirmation with a METHOD:REQUEST invitation once, through the sandbox mailbox', async () => {
    expect(await sendMail(t)).toBe(2);
    expect(await sendMail(t)).toBe(0);
    const mail = await sandboxMail(t, ws.owner.workspaceId);
    expect(mail.map((m) => [m.to, m.subject])).toEqual([
      ['ada@example.com', "You're registered: Pipeline clinic"],
      ['grace@example.com', "You're registered: Pipeline clinic"],
    ]);
    const listed = await json(t.request('/api/v1/sandbox/messages', { token: ws.owner.token }));
    expect(listed.data).toHaveLength(2);
    for (const m of mail) {
      expect(m.calendarMethod).toBe('REQUEST');
      expect(m.attachment).toBe(m.calendar);
      const ics = icsProps(m.calendar as string);
      expect(ics).toMatchObject({
        METHOD: 'REQUEST',
        UID: `${webinar.id}@webinars.service-mcp`,
        SEQUENCE: '0',
        DTSTART: '20261126T160000',
        DTEND: '20261126T164500',
        SUMMARY: 'Pipeline clinic',
        STATUS: 'CONFIRMED',
      });
      expect(ics.ATTENDEE.toLowerCase()).toBe(`mailto:${m.to}`);
      expect(ics.ORGANIZER).toBe(`mailto:${ws.connector.account_email}`);
      expect(ics.URL).toBe(joinLinkIn(m.text));
      expect(ics.LOCATION).toBe(joinLinkIn(m.text));
    }
  });

  it('re-invites everyone on a time change and a new title with the same UID and a higher SEQUENCE, and moves the reminders', async () => {
    const newStart = '2026-11-27T16:00:00.000Z';
    now = new Date(now.getTime() + 60_000);
    const updated = await json(
      t.request(`/api/v1/webinars/${webinar.id}`, {
        method: 'PATCH',
        token: ws.owner.token,
        json: { start_at: newStart },
      }),
    );
    expect(updated).toMatchObject({ start_at: newStart, invitation_sequence: 1 });
    now = new Date(now.getTime() + 60_000);
    const retitled = await json(
      t.request(`/api/v1/webinars/${webinar.id}`, {
        method: 'PATCH',
        token: ws.owner.token,
        json: { title: 'Pipeline clinic (live)' },
      }),
    );
    expect(retitled.invitation_sequence).toBe(2);
    // The unsent SEQUENCE 1 update is superseded by the SEQUENCE 2 one: each registrant gets one mail.
    expect(await sendMail(t)).toBe(2);
    const updates = (await sandboxMail(t, ws.owner.workspaceId)).slice(2);
    expect(updates.map((m) => m.subject)).toEqual([
      'Updated: Pipeline clinic (live)',
      'Updated: Pipeline clinic (live)',
    ]);
    for (const m of updates) {
      expect(icsProps(m.calendar as string)).toMatchObject({
        METHOD: 'REQUEST',
        UID: `${webinar.id}@webinars.service-mcp`,
        SEQUENCE: '2',
        DTSTART: '20261127T170000',
        SUMMARY: 'Pipeline clinic (live)',
      });
    }
    const changes = await events(ws, 'webinar.updated');
    expect(changes.map((e) => [e.data.time_changed, e.data.invitation_changed])).toEqual([
      [true, true],
      [false, true],
    ]);
  });

  it('sends the 24 h and the 1 h reminders at their times, each exactly once', async () => {
    const start = new Date('2026-11-27T16:00:00Z').getTime();
    now = new Date(start - 25 * HOUR);
    expect(await sendMail(t)).toBe(0);
    now = new Date(start - 24 * HOUR + 60_000);
    expect(await sendMail(t)).toBe(2);
    expect(await sendMail(t)).toBe(0);
    now = new Date(start - HOUR + 60_000);
    expect(await sendMail(t)).toBe(2);
    now = new Date(start - 30 * 60_000);
    expect(await sendMail(t)).toBe(0);
    await relogin(t, ws);
    const subjects = (await sandboxMail(t, ws.owner.workspaceId)).slice(4).map((m) => m.subject);
    expect(subjects).toEqual([
      'Tomorrow: Pipeline clinic (live)',
      'Tomorrow: Pipeline clinic (live)',
      'Starting in 1 hour: Pipeline clinic (live)',
      'Starting in 1 hour: Pipeline clinic (live)',
    ]);
    const reminders = (await sandboxMail(t, ws.owner.workspaceId)).slice(4);
    expect(reminders.every((m) => m.calendar === null)).toBe(true);
  });

  it('redirects a join link to the meeting and records the first join only', async () => {
    const [ada] = await sandboxMail(t, ws.owner.workspaceId);
    const link = joinLinkIn(ada.text);
    const first = await fetch(link, { redirect: 'manual' });
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe('https://meet.example/abc-defg-hij');
    const joinedAt = now.toISOString();
    now = new Date(now.getTime() + 60_000);
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(302);
    const list = await json(t.request(`/api/v1/webinars/${webinar.id}/registrants`, { token: ws.owner.token }));
    const joined = Object.fromEntries(list.data.map((r: any) => [r.email, r.joined_at]));
    expect(joined).toEqual({ 'ada@example.com': joinedAt, 'grace@example.com': null });
    expect(await events(ws, 'webinar_registrant.joined')).toHaveLength(1);
    expect((await json(t.request(`/api/v1/webinars/${webinar.id}`, { token: ws.owner.token }))).joined).toBe(1);
  });

  it('answers 404 for a forged join link and for a removed registrant', async () => {
    const [, grace] = await sandboxMail(t, ws.owner.workspaceId);
    const list = await json(t.request(`/api/v1/webinars/${webinar.id}/registrants`, { token: ws.owner.token }));
    const graceId = list.data.find((r: any) => r.email === 'grace@example.com').id;
    const removed = await json(
      t.request(`/api/v1/webinars/${webinar.id}/registrants/${graceId}`, { method: 'DELETE', token: ws.owner.token }),
    );
    expect(removed.status).toBe('removed');
    const again = await json(
      t.request(`/api/v1/webinars/${webinar.id}/registrants/${graceId}`, { method: 'DELETE', token: ws.owner.token }),
    );
    expect(again.removed_at).toBe(removed.removed_at);
    const refused = await fetch(joinLinkIn(grace.text), { redirect: 'manual' });
    expect(refused.status).toBe(404);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await fetch(`${joinLinkIn(grace.text)}x`, { redirect: 'manual' })).status).toBe(404);
    expect(await events(ws, 'webinar_registrant.removed')).toHaveLength(1);
  });
});

describe('a cancelled webinar', () => {
  it('mails METHOD:CANCEL with a higher SEQUENCE, sends no reminder after, and its join links answer 410', async () => {
    now = new Date('2026-11-24T10:00:00Z');
    const ws = await readyWorkspace(t);
    const webinar = await scheduleWebinar(t, ws);
    await addWebinarRegistrants(t, ws, webinar.id, [{ email: 'lin@example.com' }]);
    expect(await sendMail(t)).toBe(1);
    const cancelled = await json(
      t.request(`/api/v1/webinars/${webinar.id}/cancel`, { method: 'POST', token: ws.owner.token }),
    );
    expect(cancelled).toMatchObject({ status: 'cancelled', invitation_sequence: 1 });
    expect(
      (await json(t.request(`/api/v1/webinars/${webinar.id}/cancel`, { method: 'POST', token: ws.owner.token })))
        .cancelled_at,
    ).toBe(cancelled.cancelled_at);
    now = new Date(now.getTime() + 60_000);
    expect(await sendMail(t)).toBe(1);
    const [confirmation, cancellation] = await sandboxMail(t, ws.owner.workspaceId);
    expect(cancellation.subject).toBe('Cancelled: Pipeline clinic');
    expect(cancellation.calendarMethod).toBe('CANCEL');
    const before = icsProps(confirmation.calendar as string);
    const after = icsProps(cancellation.calendar as string);
    expect(after).toMatchObject({ METHOD: 'CANCEL', STATUS: 'CANCELLED', UID: before.UID });
    expect(Number(after.SEQUENCE)).toBeGreaterThan(Number(before.SEQUENCE));

    now = new Date(new Date(START).getTime() - HOUR + 60_000);
    expect(await sendMail(t)).toBe(0);
    expect(await sandboxMail(t, ws.owner.workspaceId)).toHaveLength(2);
    expect((await fetch(joinLinkIn(confirmation.text), { redirect: 'manual' })).status).toBe(410);
    await relogin(t, ws);
    const refused = await json(
      t.request(`/api/v1/webinars/${webinar.id}`, { method: 'PATCH', token: ws.owner.token, json: { title: 'x' } }),
      409,
    );
    expect(refused.code).toBe('webinar_cancelled');
    const events = await json(t.request('/api/v1/events?limit=100', { token: ws.owner.token }));
    expect(events.data.filter((e: any) => e.type === 'webinar.cancelled')).toHaveLength(1);
  });
});
