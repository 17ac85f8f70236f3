// A registrant's personal join link: the first use is recorded (and its event), every use redirects to the
// meeting; a removed registrant's or a forged link answers 404, a cancelled webinar's 410.
import type { WebinarJoinInput, WebinarJoinOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { HandlerContext } from '../context.ts';
import { recordEvent } from '../events/record-event.ts';
import { PUBLIC } from './registration.ts';
import { verifyJoin } from './tokens.ts';
import { cancelledJoinPage, notFoundPage, webinarShell } from './webinar-pages.ts';
import { findRegistrant, markJoined } from './webinar-registrants-data.ts';
import { findWebinar, type WebinarRow } from './webinars-data.ts';
import { registrantEventData } from './wire.ts';

export type JoinOutcome =
  | { kind: 'not_found' }
  | { kind: 'cancelled'; webinar: WebinarRow }
  | { kind: 'join'; meetingUrl: string };

export async function webinarJoin(deps: Deps, token: string): Promise<JoinOutcome> {
  const target = verifyJoin(deps.auth.apiKeyPepper, token);
  if (!target) return { kind: 'not_found' };
  return deps.db.sql.begin(async (tx): Promise<JoinOutcome> => {
    const registrant = await findRegistrant(tx, target.workspaceId, target.registrantId);
    if (!registrant || registrant.status !== 'registered') return { kind: 'not_found' };
    const w = await findWebinar(tx, target.workspaceId, registrant.webinar_id);
    // Webinars are never deleted, and a registrant's row references its webinar's.
    if (!w) throw new Error(`Registrant ${registrant.id} has no webinar ${registrant.webinar_id}.`);
    if (w.status === 'cancelled') return { kind: 'cancelled', webinar: w };
    const joined = await markJoined(tx, target.workspaceId, registrant.id, deps.clock.now());
    if (joined)
      await recordEvent(deps, tx, target.workspaceId, PUBLIC, 'webinar_registrant.joined', registrantEventData(joined));
    return { kind: 'join', meetingUrl: w.meeting_url };
  });
}

export async function handle(input: WebinarJoinInput, ctx: HandlerContext): Promise<WebinarJoinOutput> {
  const outcome = await webinarJoin(ctx.deps, input.path.token);
  if (outcome.kind === 'not_found') return { status: 404, body: notFoundPage(await webinarShell(ctx, undefined)) };
  if (outcome.kind === 'cancelled')
    return { status: 410, body: cancelledJoinPage(outcome.webinar, await webinarShell(ctx, outcome.webinar)) };
  return {
    status: 302,
    headers: { Location: outcome.meetingUrl, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' },
  };
}
