// A registrant's iCalendar invitation (RFC 5545, with the RFC 5546 methods), built by ical-generator. The UID
// is the webinar's own, so every update replaces the event a calendar already holds; SEQUENCE is the
// webinar's `ical_sequence`, which grows on each time change and on cancellation. Times are written in
// UTC (RFC 5545 §3.3.5 form 2), which every calendar reads without a VTIMEZONE; the webinar's time zone
// is named in the description.
import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';

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

export function invitationIcs(inv: Invitation): string {
  const calendar = ical({ prodId: { company: 'service-mcp', product: 'webinars', language: 'EN' }, method: inv.method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST });
  calendar.createEvent({
    id: webinarUid(inv.webinarId),
    sequence: inv.sequence,
    stamp: inv.stamp,
    start: inv.startAt,
    end: new Date(inv.startAt.getTime() + inv.durationMinutes * 60_000),
    summary: inv.title,
    description: `${inv.description}\n\nTime zone: ${inv.timezone}\nJoin: ${inv.joinUrl}`,
    location: inv.joinUrl,
    url: inv.joinUrl,
    status: inv.method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: inv.organizer, email: inv.organizer },
    attendees: [{ email: inv.attendee.email, name: inv.attendee.name, role: ICalAttendeeRole.REQ, status: ICalAttendeeStatus.NEEDSACTION, rsvp: false }],
  });
  return calendar.toString();
}
