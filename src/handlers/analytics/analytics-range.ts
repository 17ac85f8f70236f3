// What an analytics request asks for, checked once: the grouping, the time zone its days are in, the days
// counted (inclusive, in that zone) and the stages of the leads counted (the contract checks their names; the
// query passes them as a parameter). A wrong value is a 400 naming the query parameter.
import { ApiError } from '../../errors.ts';
import type { LeadStage } from '../leads/leads-data.ts';

/**
 * The dimensions a request may group by (the contract's enums say which): a sequence's analytics has no
 * `sequence`, the workspace's no `step` or `variant`.
 */
export type Dimension = 'sequence' | 'step' | 'variant' | 'mailbox' | 'day';

export interface AnalyticsRequest {
  groupBy?: Dimension[];
  from?: string;
  to?: string;
  timezone?: string;
  leadStages?: LeadStage[];
}

export interface AnalyticsRange {
  groupBy: Dimension[];
  timezone: string;
  /** First day counted, or null for all time. */
  from: string | null;
  /** Last day counted, included. */
  to: string;
  /** Only messages to leads now in one of these stages; empty for every message. */
  leadStages: LeadStage[];
}

/** Days a `day` grouping may span: a year and a leap day. */
export const MAX_DAYS = 366;
/** The days a `day` grouping covers when `from` is not given. */
export const DEFAULT_DAYS = 30;

const DAY_MS = 86_400_000;
// An IANA name starts with a letter; Node also takes offsets (`+05:00`), which PostgreSQL reads with the sign reversed.
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

function invalid(field: string, code: string, message: string): ApiError {
  return new ApiError('validation_failed', message, { errors: [{ field: `query.${field}`, code, message }] });
}

/** The zone's canonical IANA name; 400 when it is not one. */
export function checkTimezone(zone: string): string {
  if (!ZONE_NAME.test(zone)) throw invalid('timezone', 'invalid_timezone', `"${zone}" is not an IANA time zone.`);
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    throw invalid('timezone', 'invalid_timezone', `"${zone}" is not an IANA time zone (e.g. Europe/Paris).`);
  }
}

/** The calendar day `at` falls on in `zone`, as YYYY-MM-DD. */
export function dayIn(zone: string, at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    at,
  );
}

/** A calendar day as YYYY-MM-DD (the contract's `format: date` is not checked before the handler). */
function checkDay(field: string, day: string | undefined): string | undefined {
  if (day === undefined) return undefined;
  const at = /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T00:00:00Z`) : null;
  if (!at || Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== day)
    throw invalid(field, 'invalid_date', `"${day}" is not a day as YYYY-MM-DD.`);
  return day;
}

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const addDays = (day: string, n: number) => new Date((dayNumber(day) + n) * DAY_MS).toISOString().slice(0, 10);

export function analyticsRange(request: AnalyticsRequest, now: Date): AnalyticsRange {
  const groupBy = [...new Set(request.groupBy ?? [])];
  if (groupBy.length > 2) throw invalid('group_by', 'too_many', 'Group by two dimensions at most.');
  const timezone = checkTimezone(request.timezone ?? 'UTC');
  const to = checkDay('to', request.to) ?? dayIn(timezone, now);
  const byDay = groupBy.includes('day');
  const from = checkDay('from', request.from) ?? (byDay ? addDays(to, 1 - DEFAULT_DAYS) : null);
  if (from !== null && dayNumber(from) > dayNumber(to))
    throw invalid('from', 'after_to', `from (${from}) is after to (${to}).`);
  if (byDay && from !== null && dayNumber(to) - dayNumber(from) + 1 > MAX_DAYS)
    throw invalid('from', 'range_too_long', `Grouped by day, from..to may span at most ${MAX_DAYS} days.`);
  return { groupBy, timezone, from, to, leadStages: [...new Set(request.leadStages ?? [])] };
}
