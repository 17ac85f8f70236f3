// Rows of open and click tracking (issue 30): the pixel (GET /t/o/…: MAC check, the message row locked, one
// tracking_events insert, the 43-byte GIF) and the redirect (GET /t/c/…, the same plus the link's URL, a 302)
// against a static 204 on the same app behind the same public guard chain (request id, per-address throttle),
// in the same interleaved rounds. The requests go in turn over 1,000 tracked sent messages with a browser's
// User-Agent, so after each message's first open and click they are the repeat hits of people re-reading mail.
import { benchTrackingPaths } from './bench-routes.ts';
import type { RowGroup } from './row-runner.ts';
import type { ServerProcess } from './server-process.ts';

const names = {
  static204: 'GET static 204',
  pixel: 'GET /t/o/{token} (pixel)',
  redirect: 'GET /t/c/{token} (redirect)',
} as const;

const MESSAGES = 1000;
const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0';

export async function trackingRows(service: ServerProcess): Promise<RowGroup> {
  const res = await fetch(`${service.url}${benchTrackingPaths.fixture}?messages=${MESSAGES}`);
  if (res.status !== 200) throw new Error(`tracking fixture: ${res.status} ${(await res.text()).slice(0, 300)}`);
  const fixture = (await res.json()) as { open: string[]; click: string[] };
  const headers = { 'User-Agent': BROWSER };
  return {
    targets: [
      {
        name: names.static204,
        server: service,
        request: { method: 'GET', path: benchTrackingPaths.static204, headers },
      },
      {
        name: names.pixel,
        server: service,
        request: { method: 'GET', path: fixture.open[0], paths: fixture.open, headers },
        check: (status, body) => (status === 200 && body.length > 0 ? undefined : 'no image'),
      },
      {
        name: names.redirect,
        server: service,
        request: { method: 'GET', path: fixture.click[0], paths: fixture.click, headers, expectedStatus: 302 },
      },
    ],
    rows: [
      { label: 'tracking pixel `GET /t/o/{token}` vs a static 204 (same app)', a: names.pixel, b: names.static204 },
      {
        label: 'tracked link `GET /t/c/{token}` (302) vs a static 204 (same app)',
        a: names.redirect,
        b: names.static204,
      },
    ],
    notes: [
      `Tracking rows: the pixel and the redirect over ${MESSAGES.toLocaleString('en')} tracked sent messages in turn (each hit writes a tracking_events row; the first per message also sets opened_at/clicked_at and records an event), with a browser User-Agent; the baseline is a 204 behind the same public guard chain on the same app.`,
    ],
  };
}
