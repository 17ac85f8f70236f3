// The open-tracking pixel: records the fetch (tracking-hit.ts) and answers a transparent 1x1 GIF that no cache
// keeps, so every open reaches the service; a token this service did not sign is a 404 that wrote nothing.
import type { TrackOpenInput, TrackOpenOutput } from '../../generated/handlers.ts';
import { renderPage } from '../../http/page.ts';
import type { HandlerContext } from '../context.ts';
import { recordTrackingHit } from './tracking-hit.ts';

/** The 43-byte transparent GIF89a every pixel answers. */
export const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

export const trackingNotFound = {
  status: 404 as const,
  body: renderPage({ title: 'Not found', body: '<p>This link is not one we sent, or it was cut short.</p>' }),
};

/** The GIF's bytes as a stream: the response writes them as they are (a string body would be encoded as text). */
const pixelBody = () =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(PIXEL_GIF));
      controller.close();
    },
  });

export async function handle(input: TrackOpenInput, ctx: HandlerContext): Promise<TrackOpenOutput> {
  const hit = await recordTrackingHit(ctx.deps, 'open', {
    token: input.path.token,
    method: ctx.method ?? 'GET',
    userAgent: input.headers['user-agent'],
    clientAddress: ctx.clientAddress,
  });
  if (!hit.found) return trackingNotFound;
  return {
    status: 200,
    body: pixelBody(),
    headers: { 'Cache-Control': 'no-store, private', 'Content-Length': String(PIXEL_GIF.length) },
  };
}
