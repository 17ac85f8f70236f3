// A mailbox that bounces too much is paused before it harms its sender reputation further: after every hard
// bounce (refused at once by the provider: send-failure.ts; or a permanent bounce notice later:
// replies/inbound-effects.ts) its hard-bounce rate over its last 100 sends is compared with its
// bounce_rate_threshold (default 0.05). Fewer than 20 sends say too little, so a new mailbox is not paused for
// its first bounce. The pause (reason `bounce_rate`, an event `connector.sending_paused`) stops this mailbox
// only: the sequences' other mailboxes go on, and their enrollments that have sent nothing move to them
// (mailbox-pinning.ts). A person resumes it with update_connector_sending {paused: false}.
import { findConnector, pauseConnectorSending } from '../connectors/connectors-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { recordEvent } from '../events/record-event.ts';
import { recentHardBounces } from './sequence-claims-data.ts';

export const BOUNCE_RATE_WINDOW = 100;
export const BOUNCE_RATE_MIN_SENDS = 20;

const SYSTEM = { type: 'system', id: null } as const;

/** Pauses the mailbox when its bounce rate passed its threshold; whether it did (now, in `tx`). */
export async function pauseOnBounceRate(
  deps: Deps,
  tx: Queryable,
  workspaceId: string,
  connectorId: string,
): Promise<boolean> {
  const c = await findConnector(tx, workspaceId, connectorId);
  if (!c || c.sending_paused_reason) return false;
  const { sends, hard_bounces } = await recentHardBounces(tx, workspaceId, connectorId, BOUNCE_RATE_WINDOW);
  const rate = sends ? hard_bounces / sends : 0;
  if (sends < BOUNCE_RATE_MIN_SENDS || rate <= c.bounce_rate_threshold) return false;
  const paused = await pauseConnectorSending(tx, workspaceId, connectorId, 'bounce_rate', deps.clock.now());
  if (!paused) return false;
  await recordEvent(deps, tx, workspaceId, SYSTEM, 'connector.sending_paused', {
    id: c.id,
    account_email: c.account_email,
    reason: 'bounce_rate',
    bounce_rate: Math.round(rate * 10_000) / 10_000,
    hard_bounces,
    sends,
    threshold: c.bounce_rate_threshold,
  });
  deps.log.warn(
    { connector_id: c.id, hard_bounces, sends },
    'mailbox paused: its hard-bounce rate passed its threshold',
  );
  return true;
}
