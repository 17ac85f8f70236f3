// A registrant's iCalendar invitation (RFC 5545, with the RFC 5546 methods), built by ical-generator. The UID
// is the webinar's own, so every update replaces the event a calendar already holds; SEQUENCE is the
// webinar's `ical_sequence`, which grows on each change the invitation shows and on cancellation. Times are
// written in the webinar's time zone (DTSTART;TZID=…) with its VTIMEZONE (timezones-ical-library's
// tzdb-derived rules), so a calendar shows the time the organiser chose and keeps it across daylight-saving
// changes; luxon turns the instant into that zone's wall-clock time, as ical-generator needs for a TZID.
// UTC is the fallback for a zone the library lacks and for a time in the hour repeated when clocks go back.
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { DateTime } from 'luxon';
import { tzlib_get_ical_block } from 'timezones-ical-library';

export interface Invitation {
  webinarId: string;
  sequence: number;
  title: string;
  description: string;
  startAt: Date;
  durationMinutes: number;
  timezone: string;
  organizer: string;
  attendee: { email: string; name?: string };
  joinUrl: string;
  /** REQUEST (an invitation or its update) or CANCEL. */
  method: 'REQUEST' | 'CANCEL';
  /** When this version of the invitation was made (DTSTAMP). */
  stamp: Date;
}

/** A stable UID per webinar: the same on every invitation, update and cancellation. */
export const webinarUid = (webinarId: string) => `${webinarId}@webinars.service-mcp`;

/**
 * The zone's VTIMEZONE and the TZID it is filed under (an alias such as Asia/Calcutta is filed under
 * Asia/Kolkata); undefined for a zone the library does not know, whose times are then written in UTC.
 */
export function vtimezoneOf(timezone: string): { tzid: string; block: string } | undefined {
  const got = tzlib_get_ical_block(timezone);
  const tzid = Array.isArray(got) ? /^TZID=(.+)$/.exec(got[1] ?? '')?.[1] : undefined;
  return tzid && got[0] ? { tzid, block: got[0] } : undefined;
}

const wall = (d: DateTime) => d.toFormat("yyyyLLdd'T'HHmmss");

/**
 * Whether this local time happens twice (the hour repeated when clocks go back). RFC 5545 §3.3.5 reads such a
 * time as its first occurrence and calendars disagree in practice (ical.js takes the second), so an event
 * touching one is written in UTC instead.
 */
function isAmbiguous(dt: DateTime): boolean {
  const back = dt.minus({ hours: 3 }).offset - dt.offset;
  const ahead = dt.offset - dt.plus({ hours: 3 }).offset;
  return (
    (back > 0 && wall(dt.minus({ minutes: back })) === wall(dt)) ||
    (ahead > 0 && wall(dt.plus({ minutes: ahead })) === wall(dt))
  );
}

/** The event's start and end in its zone, or undefined when they must be written in UTC. */
function zonedTimes(
  inv: Invitation,
  end: Date,
): { tzid: string; block: string; start: DateTime; end: DateTime } | undefined {
  const zone = vtimezoneOf(inv.timezone);
  if (!zone) return undefined;
  const times = {
    start: DateTime.fromJSDate(inv.startAt, { zone: zone.tzid }),
    end: DateTime.fromJSDate(end, { zone: zone.tzid }),
  };
  return isAmbiguous(times.start) || isAmbiguous(times.end) ? undefined : { ...zone, ...times };
}

export function invitationIcs(inv: Invitation): string {
  const end = new Date(inv.startAt.getTime() + inv.durationMinutes * 60_000);
  const zone = zonedTimes(inv, end);
  const calendar = ical({
    prodId: { company: 'service-mcp', product: 'webinars', language: 'EN' },
    method: inv.method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
    // No calendar-wide zone (ical-generator would write DTSTAMP in it, which RFC 5545 wants in UTC): the
    // generator only supplies the event's VTIMEZONE.
    ...(zone && { timezone: { name: null, generator: (tzid: string) => (tzid === zone.tzid ? zone.block : null) } }),
  });
  calendar.createEvent({
    id: webinarUid(inv.webinarId),
    sequence: inv.sequence,
    stamp: inv.stamp,
    start: zone?.start ?? inv.startAt,
    end: zone?.end ?? end,
    timezone: zone?.tzid ?? null,
    summary: inv.title,
    description: `${inv.description}\n\nTime zone: ${inv.timezone}\nJoin: ${inv.joinUrl}`,
    location: inv.joinUrl,
    url: inv.joinUrl,
    status: inv.method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: inv.organizer, email: inv.organizer },
    attendees: [
      {
        email: inv.attendee.email,
        name: inv.attendee.name,
        role: ICalAttendeeRole.REQ,
        status: ICalAttendeeStatus.NEEDSACTION,
        rsvp: false,
      },
    ],
  });
  return calendar.toString();
}
