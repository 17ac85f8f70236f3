// One pixel fetch or link follow, as track_open and track_click record it: the token is checked first (a token
// we did not sign, or not for this kind, is a 404 that read and wrote nothing), then, in one transaction on the
// locked message row, the hit is classified (tracking-rules.ts), stored in tracking_events, and the first human
// one sets opened_at/clicked_at. Events: `email_message.opened`/`.clicked` once for the first machine hit and
// once for the first human hit of a message and kind, so a scanner that follows every link, or a reader who
// opens a message ten times, sends one webhook each, not one per hit.
import type { Deps } from '../../deps.ts';
import { recordEvent } from '../events/record-event.ts';
import { SYSTEM } from './send-settle.ts';
import {
  earlierHit,
  insertTrackingEvent,
  lockTrackedMessage,
  markFirstHuman,
  type TrackedMessageRow,
} from './tracking-data.ts';
import { isGoogleImageProxy, machineReason } from './tracking-rules.ts';
import { verifyTracking, type TrackingTarget } from './tracking-token.ts';

export interface HitRequest {
  token: string;
  method: string;
  userAgent: string | undefined;
  clientAddress: string;
}

/** What a hit found: nothing (404), or the message's link URL for a click. */
export type HitOutcome = { found: false } | { found: true; url: string | null };

/** The URL a target points to on this message, or undefined when the message was not sent tracked that way. */
function trackedUrl(m: TrackedMessageRow, target: TrackingTarget): string | null | undefined {
  if (target.kind === 'open') return m.tracked_opens ? null : undefined;
  if (!m.tracked_clicks) return undefined;
  return m.tracked_links?.[target.link];
}

export async function recordTrackingHit(
  deps: Deps,
  kind: TrackingTarget['kind'],
  request: HitRequest,
): Promise<HitOutcome> {
  const target = verifyTracking(deps.auth.apiKeyPepper, kind, request.token);
  if (!target) return { found: false };
  return deps.db.sql.begin(async (tx): Promise<HitOutcome> => {
    const m = await lockTrackedMessage(tx, target.workspaceId, target.messageId);
    const url = m && trackedUrl(m, target);
    if (!m || url === undefined) return { found: false };
    const now = deps.clock.now();
    const sentAt = m.sent_at ?? m.sending_at;
    const reason = machineReason(
      {
        kind,
        method: request.method,
        userAgent: request.userAgent,
        clientAddress: request.clientAddress,
        secondsSinceSent: sentAt ? (now.getTime() - sentAt.getTime()) / 1000 : null,
        googleProxySeenBefore:
          isGoogleImageProxy(request.userAgent) && (await earlierHit(tx, m.workspace_id, m.id, kind, 'google_proxy')),
      },
      deps.config.sequences.trackingMachineWindowSeconds,
    );
    const link = target.kind === 'click' ? target.link : null;
    // Asked before this hit is stored: whether it is the message's first machine hit of its kind.
    const firstMachine = reason !== null && !(await earlierHit(tx, m.workspace_id, m.id, kind, 'machine'));
    await insertTrackingEvent(tx, m.workspace_id, deps.ids, {
      messageId: m.id,
      kind,
      link,
      url,
      machine: reason !== null,
      machineReason: reason,
      userAgent: request.userAgent?.slice(0, 512) ?? null,
      now,
    });
    const counted = kind === 'open' ? m.opened_at : m.clicked_at;
    const first =
      reason === null ? counted === null && (await markFirstHuman(tx, m.workspace_id, m.id, kind, now)) : firstMachine;
    if (first)
      await recordEvent(
        deps,
        tx,
        m.workspace_id,
        SYSTEM,
        kind === 'open' ? 'email_message.opened' : 'email_message.clicked',
        {
          id: m.id,
          sequence_id: m.sequence_id,
          lead_id: m.lead_id,
          step: m.step,
          machine: reason !== null,
          machine_reason: reason,
          ...(target.kind === 'click' && { link_index: link, url }),
          at: now.toISOString(),
        },
      );
    return { found: true, url };
  });
}
