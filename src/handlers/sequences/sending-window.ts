// A sequence's sending window in its own time zone: which weekdays, from which hour to which, and where
// its local day starts (the daily limit counts from there).
import type { SequenceSchedule } from './sequences-data.ts';

const WEEKDAYS: Record<string, string> = { Mon: 'mon', Tue: 'tue', Wed: 'wed', Thu: 'thu', Fri: 'fri', Sat: 'sat', Sun: 'sun' };
const formats = new Map<string, Intl.DateTimeFormat>();

function format(timezone: string): Intl.DateTimeFormat {
  let f = formats.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', weekday: 'short', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formats.set(timezone, f);
  }
  return f;
}

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
  const parts = Object.fromEntries(format(timezone).formatToParts(at).map((p) => [p.type, p.value]));
  return {
    weekday: WEEKDAYS[parts.weekday],
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

export function windowOpen(schedule: SequenceSchedule, at: Date): boolean {
  const local = localTime(schedule.timezone, at);
  return schedule.days.includes(local.weekday) && local.hour >= schedule.start_hour && local.hour < schedule.end_hour;
}

/** The instant the local calendar day containing `at` began in `timezone`. */
export function startOfLocalDay(timezone: string, at: Date): Date {
  const l = localTime(timezone, at);
  const wallAsUtc = Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second);
  const offset = wallAsUtc - Math.floor(at.getTime() / 1000) * 1000;
  return new Date(Date.UTC(l.year, l.month - 1, l.day) - offset);
}
