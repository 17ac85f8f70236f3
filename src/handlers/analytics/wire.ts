// Analytics as the contract shows them: counts, delivered, and rates that are null when nothing was sent.
import type { AnalyticsRange } from './analytics-range.ts';
import type { FigureCounts, GroupRow } from './analytics-data.ts';

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
    reply_rate: rate(c.replied, delivered),
    bounce_rate: rate(c.bounced, c.sent),
    unsubscribe_rate: rate(c.unsubscribed, delivered),
  };
};

const zero: FigureCounts = { sent: 0, bounced: 0, replied: 0, auto_replied: 0, unsubscribed: 0 };

/** The groups partition the counted messages, so their sums are the totals. */
function total(rows: GroupRow[]): FigureCounts {
  return rows.reduce(
    (t, r) => ({
      sent: t.sent + r.sent,
      bounced: t.bounced + r.bounced,
      replied: t.replied + r.replied,
      auto_replied: t.auto_replied + r.auto_replied,
      unsubscribed: t.unsubscribed + r.unsubscribed,
    }),
    zero,
  );
}

const keysOf = (r: GroupRow) => ({
  ...(r.sequence_id !== undefined && { sequence_id: r.sequence_id, sequence_name: r.sequence_name ?? '' }),
  ...(r.step !== undefined && { step: r.step }),
  ...(r.connector_id !== undefined && { connector_id: r.connector_id, mailbox: r.mailbox ?? null }),
  ...(r.day !== undefined && { day: r.day }),
});

export const analyticsBody = (range: AnalyticsRange, rows: GroupRow[]) => ({
  group_by: range.groupBy,
  from: range.from,
  to: range.to,
  timezone: range.timezone,
  totals: figures(total(rows)),
  groups: range.groupBy.length ? rows.map((r) => ({ ...keysOf(r), ...figures(r) })) : [],
});
