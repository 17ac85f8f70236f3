// Analytics as the contract shows them: counts, delivered, and rates that are null when their denominator is
// nothing (nothing sent, delivered, or delivered with that tracking on).
import { LEAD_STAGES } from '../leads/leads-data.ts';
import type { AnalyticsRange } from './analytics-range.ts';
import type { FigureCounts, GroupRow, OutreachCounts } from './analytics-data.ts';

const rate = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);

export const figures = (c: FigureCounts) => {
  const delivered = c.sent - c.bounced;
  return {
    sent: c.sent,
    delivered,
    bounced: c.bounced,
    replied: c.replied,
    auto_replied: c.auto_replied,
    unsubscribed: c.unsubscribed,
    opened: c.opened,
    clicked: c.clicked,
    reply_rate: rate(c.replied, delivered),
    bounce_rate: rate(c.bounced, c.sent),
    unsubscribe_rate: rate(c.unsubscribed, delivered),
    open_rate: rate(c.opened, c.open_tracked),
    click_rate: rate(c.clicked, c.click_tracked),
  };
};

const COUNTS = [
  'sent',
  'bounced',
  'replied',
  'auto_replied',
  'unsubscribed',
  'opened',
  'clicked',
  'open_tracked',
  'click_tracked',
] as const satisfies ReadonlyArray<keyof FigureCounts>;

/** The groups partition the counted messages, so their sums are the totals. */
function total(rows: GroupRow[]): FigureCounts {
  const sum = (key: keyof FigureCounts) => rows.reduce((n, r) => n + r[key], 0);
  return Object.fromEntries(COUNTS.map((key) => [key, sum(key)])) as Record<keyof FigureCounts, number>;
}

const keysOf = (r: GroupRow) => ({
  ...(r.sequence_id !== undefined && { sequence_id: r.sequence_id, sequence_name: r.sequence_name ?? '' }),
  ...(r.step !== undefined && { step: r.step }),
  ...(r.variant !== undefined && { variant: r.variant }),
  ...(r.connector_id !== undefined && { connector_id: r.connector_id, mailbox: r.mailbox ?? null }),
  ...(r.day !== undefined && { day: r.day }),
});

/** Every stage, so "how many of them are interested" reads 0 rather than a missing key. */
const stagesOf = (counted: Record<string, number>) =>
  Object.fromEntries(LEAD_STAGES.map((stage) => [stage, counted[stage] ?? 0]));

export const analyticsBody = (range: AnalyticsRange, counts: OutreachCounts) => ({
  group_by: range.groupBy,
  from: range.from,
  to: range.to,
  timezone: range.timezone,
  totals: figures(total(counts.groups)),
  groups: range.groupBy.length ? counts.groups.map((r) => ({ ...keysOf(r), ...figures(r) })) : [],
  stages: stagesOf(counts.stages),
});
