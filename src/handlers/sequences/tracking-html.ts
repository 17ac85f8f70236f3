// What tracking does to a rendered message's HTML part, as one pure function: with clicks on, every http(s)
// link but the unsubscribe link points to a signed redirect naming the link's index (the original URLs are
// kept, by index, on the message row); with opens on, a 1x1 pixel goes before </body>. The text part is never
// touched: it keeps the original URLs, so a reader of plain text is not tracked.
import { escapeHtml } from '../../http/page.ts';
import type { Deps } from '../../deps.ts';
import { MAX_TRACKED_LINKS, trackingUrl } from './tracking-token.ts';

export interface Tracking {
  opens: boolean;
  clicks: boolean;
}

export interface TrackedHtml {
  html: string;
  /** The original URL of each rewritten link, by the index its token names; empty when clicks are off. */
  links: string[];
}

/** A target's public URL, signed for one message. */
export type TrackingUrl = (target: { kind: 'open' } | { kind: 'click'; link: number }) => string;

const HREF = /(<a\b[^>]*?\shref=")([^"]*)(")/gi;
const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" };
const unescapeHtml = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39|#x27);/gi, (_m, e: string) => ENTITY[e.toLowerCase()]);

export function applyTracking(html: string, tracking: Tracking, unsubscribeUrl: string, url: TrackingUrl): TrackedHtml {
  const links: string[] = [];
  let out = html;
  if (tracking.clicks)
    out = out.replace(HREF, (whole, open: string, href: string, close: string) => {
      const original = unescapeHtml(href);
      if (!/^https?:\/\//i.test(original) || original === unsubscribeUrl || links.length >= MAX_TRACKED_LINKS)
        return whole;
      links.push(original);
      return `${open}${escapeHtml(url({ kind: 'click', link: links.length - 1 }))}${close}`;
    });
  if (tracking.opens) {
    const pixel = `<img src="${escapeHtml(url({ kind: 'open' }))}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">`;
    const end = out.lastIndexOf('</body>');
    out = end === -1 ? `${out}${pixel}\n` : `${out.slice(0, end)}${pixel}\n${out.slice(end)}`;
  }
  return { html: out, links };
}

/** The HTML part one message is sent with: its pixel and links signed for it on the service's public host. */
export const trackMessageHtml = (
  deps: Deps,
  tracking: Tracking,
  message: { workspace_id: string; id: string },
  html: string,
  unsubscribeUrl: string,
): TrackedHtml =>
  applyTracking(html, tracking, unsubscribeUrl, (target) =>
    trackingUrl(deps, { ...target, workspaceId: message.workspace_id, messageId: message.id }),
  );
