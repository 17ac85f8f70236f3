// Which of a sequence's mailboxes each enrollment sends from. An enrollment is pinned to one mailbox, so every
// step of its thread leaves from one inbox: when enrolled, or, when the sequence had no mailbox able to send
// then, at the dispatcher's next pass before its first message is made. New pins go to the mailbox with the
// lowest ratio of active enrollments pinned to it in this sequence to what it may send a day (its cap with the
// warm-up ramp), ties in the sequence's order: deterministic, and in proportion to capacity.
// An enrollment that has sent nothing yet moves when its mailbox leaves the sequence or cannot send (paused,
// disconnected); one that has sent stays on its mailbox whatever happens, because its thread lives there; its
// next steps wait for that mailbox to send again.
import { findConnectors } from '../connectors/connectors-data.ts';
import { allowedToday, canSend } from '../connectors/mailbox-sending.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { countActivePinned, pinEnrollments, waitingForMailbox } from './sequence-enrollments-data.ts';

export interface MailboxCapacity {
  id: string;
  /** Sends a day (at least 1, so a ratio exists). */
  capacity: number;
}

const REPIN_BATCH = 5000;

/** The listed mailboxes that can send now, in the list's order, with their capacity today. */
export async function sendableMailboxes(
  deps: Deps,
  q: Queryable,
  workspaceId: string,
  ids: readonly string[],
): Promise<MailboxCapacity[]> {
  const found = new Map((await findConnectors(q, workspaceId, ids)).map((c) => [c.id, c]));
  const now = deps.clock.now();
  return ids.flatMap((id) => {
    const c = found.get(id);
    if (!c || !canSend(c)) return [];
    return [{ id, capacity: Math.max(1, allowedToday(c, deps.config.sequences.mailboxDailyCap, now)) }];
  });
}

/** Mailboxes for `n` new enrollments, given how many are pinned to each already (updated in place). */
export function assignMailboxes(mailboxes: MailboxCapacity[], pinned: Map<string, number>, n: number): string[] {
  if (mailboxes.length === 0) return Array.from({ length: n }, () => '');
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let best = mailboxes[0];
    let bestRatio = Number.POSITIVE_INFINITY;
    for (const m of mailboxes) {
      const ratio = (pinned.get(m.id) ?? 0) / m.capacity;
      if (ratio < bestRatio) [best, bestRatio] = [m, ratio];
    }
    pinned.set(best.id, (pinned.get(best.id) ?? 0) + 1);
    out.push(best.id);
  }
  return out;
}

/** Pins the sequence's enrollments that wait for a mailbox (see the header), a batch per transaction. */
export async function pinWaitingEnrollments(
  deps: Deps,
  workspaceId: string,
  sequenceId: string,
  mailboxes: MailboxCapacity[],
): Promise<number> {
  if (mailboxes.length === 0) return 0;
  const usable = mailboxes.map((m) => m.id);
  let total = 0;
  for (;;) {
    const moved = await deps.db.sql.begin(async (tx) => {
      const ids = await waitingForMailbox(tx, workspaceId, sequenceId, usable, REPIN_BATCH);
      const pinned = await countActivePinned(tx, workspaceId, sequenceId);
      const connectorIds = assignMailboxes(mailboxes, pinned, ids.length);
      await pinEnrollments(tx, workspaceId, { enrollmentIds: ids, connectorIds, now: deps.clock.now() });
      return ids.length;
    });
    total += moved;
    if (moved < REPIN_BATCH) return total;
  }
}
