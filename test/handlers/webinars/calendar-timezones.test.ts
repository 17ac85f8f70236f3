// The invitation's times in the webinar's own time zone: DTSTART/DTEND carry TZID=<zone> with that zone's
// VTIMEZONE, and a calendar that knows only what the file says (ical.js, which has no zone data of its own)
// reads back the exact instants of start_at and its end, including events that span a daylight-saving change.
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { invitationIcs } from '../../../src/handlers/webinars/calendar.ts';
import { json, readyWorkspace, type Workspace } from '../sequences/sequence-fixtures.ts';
import { addWebinarRegistrants, sandboxMail, scheduleWebinar, sendMail } from './webinar-fixtures.ts';

/** Unfolded content lines (RFC 5545 §3.1). */
const lines = (ics: string) => ics.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);

/** The instants a calendar reads from the file, with only the file's own VTIMEZONEs registered. */
function readBack(ics: string): { tzids: string[]; start: string; end: string; startZone: string } {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const tzids: string[] = [];
  for (const vtz of calendar.getAllSubcomponents('vtimezone')) {
    const zone = new ICAL.Timezone(vtz);
    ICAL.TimezoneService.register(zone, zone.tzid);
    tzids.push(zone.tzid);
  }
  const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent') as ICAL.Component);
  const out = {
    tzids,
    start: event.startDate.toJSDate().toISOString(),
    end: event.endDate.toJSDate().toISOString(),
    startZone: event.startDate.zone?.tzid ?? '',
  };
  for (const tzid of tzids) ICAL.TimezoneService.remove(tzid);
  return out;
}

function ics(timezone: string, startAt: string, durationMinutes: number): string {
  return invitationIcs({
    webinarId: 'web_01jd8x6y5k2r3t4v5w6x7y8z9a',
    sequence: 0,
    title: 'Zones',
    description: '',
    startAt: new Date(startAt),
    durationMinutes,
    timezone,
    organizer: 'host@example.com',
    attendee: { email: 'guest@example.com' },
    joinUrl: 'https://svc.example/webinars/join/x',
    method: 'REQUEST',
    stamp: new Date('2026-11-24T10:00:00Z'),
  });
}

// [name, zone given, TZID written, start_at, minutes, DTSTART wall clock, DTEND wall clock]
const cases: Array<[string, string, string, string, number, string, string]> = [
  [
    'Berlin in winter (CET, +01:00)',
    'Europe/Berlin',
    'Europe/Berlin',
    '2026-12-03T17:00:00Z',
    60,
    '20261203T180000',
    '20261203T190000',
  ],
  [
    'Berlin in summer (CEST, +02:00)',
    'Europe/Berlin',
    'Europe/Berlin',
    '2027-07-01T08:00:00Z',
    45,
    '20270701T100000',
    '20270701T104500',
  ],
  [
    'Berlin across the spring change (an hour of clock skipped)',
    'Europe/Berlin',
    'Europe/Berlin',
    '2027-03-28T00:30:00Z',
    60,
    '20270328T013000',
    '20270328T033000',
  ],
  [
    'Berlin across the autumn change (an hour of clock repeated)',
    'Europe/Berlin',
    'Europe/Berlin',
    '2027-10-30T23:30:00Z',
    180,
    '20271031T013000',
    '20271031T033000',
  ],
  [
    'New York across its spring change',
    'America/New_York',
    'America/New_York',
    '2027-03-14T06:30:00Z',
    60,
    '20270314T013000',
    '20270314T033000',
  ],
  [
    'an alias, filed under its canonical zone',
    'Asia/Calcutta',
    'Asia/Kolkata',
    '2026-12-03T09:30:00Z',
    30,
    '20261203T150000',
    '20261203T153000',
  ],
];

describe('the invitation in the webinar time zone', () => {
  it.each(cases)('%s', (_name, zone, tzid, startAt, minutes, wallStart, wallEnd) => {
    const text = ics(zone, startAt, minutes);
    const content = lines(text);
    expect(content).toContain(`DTSTART;TZID=${tzid}:${wallStart}`);
    expect(content).toContain(`DTEND;TZID=${tzid}:${wallEnd}`);
    // DTSTAMP stays in UTC (RFC 5545 §3.8.7.2); one VTIMEZONE, for the zone the times name, before the event.
    expect(content).toContain('DTSTAMP:20261124T100000Z');
    expect(content.filter((l) => l === 'BEGIN:VTIMEZONE')).toHaveLength(1);
    expect(content.indexOf(`TZID:${tzid}`)).toBeGreaterThan(content.indexOf('BEGIN:VTIMEZONE'));
    expect(content.indexOf('END:VTIMEZONE')).toBeLessThan(content.indexOf('BEGIN:VEVENT'));
    const read = readBack(text);
    expect(read).toEqual({
      tzids: [tzid],
      startZone: tzid,
      start: new Date(startAt).toISOString(),
      end: new Date(new Date(startAt).getTime() + minutes * 60_000).toISOString(),
    });
  });

  // 02:30 happens twice in Berlin on 2027-10-31 (CEST, then CET): a TZID time cannot say which one.
  it.each([
    ['the first', '2027-10-31T00:30:00Z', '20271031T003000Z', '20271031T013000Z'],
    ['the second', '2027-10-31T01:30:00Z', '20271031T013000Z', '20271031T023000Z'],
  ])(
    'writes a start at %s 02:30 of the repeated hour in UTC, without a VTIMEZONE',
    (_which, startAt, dtstart, dtend) => {
      const text = ics('Europe/Berlin', startAt, 60);
      const content = lines(text);
      expect(content).toContain(`DTSTART:${dtstart}`);
      expect(content).toContain(`DTEND:${dtend}`);
      expect(content).not.toContain('BEGIN:VTIMEZONE');
      expect(readBack(text)).toMatchObject({ tzids: [], start: new Date(startAt).toISOString() });
    },
  );

  it('reads a different instant when the VTIMEZONE is left out, so the check above rests on it', () => {
    const text = ics('Europe/Berlin', '2027-03-28T00:30:00Z', 60).replace(
      /BEGIN:VTIMEZONE[\s\S]*END:VTIMEZONE\r?\n/,
      '',
    );
    expect(readBack(text).start).not.toBe('2027-03-28T00:30:00.000Z');
  });
});

describe('an invitation mailed for a webinar in Europe/Berlin', () => {
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

  it('carries TZID=Europe/Berlin across the DST change, and an update to another zone keeps the instant', async () => {
    const webinar = await scheduleWebinar(t, ws, {
      start_at: '2027-03-28T00:30:00Z',
      duration_minutes: 60,
      timezone: 'Europe/Berlin',
    });
    await addWebinarRegistrants(t, ws, webinar.id, [{ email: 'berlin@example.com' }]);
    await sendMail(t);
    now = new Date(now.getTime() + 60_000);
    await json(
      t.request(`/api/v1/webinars/${webinar.id}`, {
        method: 'PATCH',
        token: ws.owner.token,
        json: { timezone: 'America/New_York' },
      }),
    );
    await sendMail(t);
    const [confirmation, update] = await sandboxMail(t, ws.owner.workspaceId);
    expect(confirmation.attachment).toBe(confirmation.calendar);
    expect(lines(confirmation.attachment as string)).toContain('DTSTART;TZID=Europe/Berlin:20270328T013000');
    expect(readBack(confirmation.attachment as string)).toEqual({
      tzids: ['Europe/Berlin'],
      startZone: 'Europe/Berlin',
      start: webinar.start_at,
      end: '2027-03-28T01:30:00.000Z',
    });
    expect(lines(update.attachment as string)).toContain('DTSTART;TZID=America/New_York:20270327T203000');
    expect(readBack(update.attachment as string)).toMatchObject({
      tzids: ['America/New_York'],
      start: webinar.start_at,
    });
  });
});
