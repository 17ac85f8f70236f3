// A sequence's sending window in its own time zone: which weekdays, from which hour to which, and where
// its local day starts (the daily limit counts from there). luxon does the zone maths, as it does for the
// webinar invitations: a day's start is found in its own offset, so days when clocks move count right.
import { DateTime } from 'luxon';
import type { SequenceSchedule } from './sequences-data.ts';

const WEEKDAYS = ['', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

interface LocalTime {
  weekday: string;
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function localTime(timezone: string, at: Date): LocalTime {
  const { weekday, year, month, day, hour, minute, second } = DateTime.fromJSDate(at, { zone: timezone });
  return { weekday: WEEKDAYS[weekday], year, month, day, hour, minute, second };
}

export function windowOpen(schedule: SequenceSchedule, at: Date): boolean {
  const local = localTime(schedule.timezone, at);
  return schedule.days.includes(local.weekday) && local.hour >= schedule.start_hour && local.hour < schedule.end_hour;
}

/** The instant the local calendar day containing `at` began in `timezone` (01:00 where midnight is skipped). */
export function startOfLocalDay(timezone: string, at: Date): Date {
  return DateTime.fromJSDate(at, { zone: timezone }).startOf('day').toJSDate();
}
