// A mailbox's sequence sending as get_connector, list_connectors and update_connector_sending show it, and the
// one rule the sender and the enrollment pinning share: how many messages the mailbox may send in 24 hours
// today, its daily cap (or the service's) with the warm-up ramp applied.
import type { Queryable } from '../../db/queryable.ts';
import { countMailboxesSendsSince } from '../sequences/sequence-claims-data.ts';
import type { ConnectorRow, Warmup } from './connectors-data.ts';

const DAY_MS = 86_400_000;

/** Whether the connector is a mailbox that sequences send from (ad accounts are not). */
export const isMailbox = (c: Pick<ConnectorRow, 'provider'>) => c.provider === 'gmail';

/** The ramp's allowance today: start_per_day, plus increase_per_day for each whole day since it started, at most max_per_day. */
export function rampToday(w: Warmup, now: Date): number {
  const days = Math.max(0, Math.floor((now.getTime() - Date.parse(w.started_at)) / DAY_MS));
  return Math.min(w.max_per_day, w.start_per_day + w.increase_per_day * days);
}

/** Sends the mailbox may make in the 24 hours before `now`, across all sequences. */
export function allowedToday(c: Pick<ConnectorRow, 'daily_cap' | 'warmup'>, defaultCap: number, now: Date): number {
  const cap = c.daily_cap ?? defaultCap;
  return c.warmup ? Math.min(cap, rampToday(c.warmup, now)) : cap;
}

/** Whether the sender may claim messages for it now (the cap aside). */
export const canSend = (c: Pick<ConnectorRow, 'status' | 'sending_paused_reason'>) =>
  c.status === 'connected' && c.sending_paused_reason === null;

export function sendingBody(c: ConnectorRow, sentLast24h: number, defaultCap: number, now: Date) {
  if (!isMailbox(c)) return null;
  return {
    daily_cap: c.daily_cap ?? defaultCap,
    warmup: c.warmup ? ({ ...c.warmup } as Record<string, unknown>) : null,
    allowed_today: allowedToday(c, defaultCap, now),
    sent_last_24h: sentLast24h,
    bounce_rate_threshold: c.bounce_rate_threshold,
    paused: c.sending_paused_reason !== null,
    pause_reason: c.sending_paused_reason,
    paused_at: c.sending_paused_at ? c.sending_paused_at.toISOString() : null,
  };
}

/** The `sending` of these connectors, by connector id, with their live counts. */
export async function mailboxSendingOf(
  q: Queryable,
  workspaceId: string,
  connectors: ConnectorRow[],
  defaultCap: number,
  now: Date,
): Promise<Map<string, ReturnType<typeof sendingBody>>> {
  const mailboxes = connectors.filter(isMailbox);
  const sent = await countMailboxesSendsSince(
    q,
    workspaceId,
    mailboxes.map((c) => c.id),
    new Date(now.getTime() - DAY_MS),
  );
  return new Map(connectors.map((c) => [c.id, sendingBody(c, sent.get(c.id) ?? 0, defaultCap, now)]));
}
