// A rewritten link: records the follow (tracking-hit.ts) and redirects to the link's original URL, uncached
// and without a Referer naming the token; a token this service did not sign is a 404 that wrote nothing.
import type { TrackClickInput, TrackClickOutput } from '../../generated/handlers.ts';
import type { HandlerContext } from '../context.ts';
import { recordTrackingHit } from './tracking-hit.ts';
import { trackingNotFound } from './track-open.ts';

export async function handle(input: TrackClickInput, ctx: HandlerContext): Promise<TrackClickOutput> {
  const hit = await recordTrackingHit(ctx.deps, 'click', {
    token: input.path.token,
    method: ctx.method ?? 'GET',
    userAgent: input.headers['user-agent'],
    clientAddress: ctx.clientAddress,
  });
  if (!hit.found || !hit.url) return trackingNotFound;
  return {
    status: 302,
    headers: { Location: hit.url, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' },
  };
}
