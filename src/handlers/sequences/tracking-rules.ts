// Which pixel fetches and link follows are a machine's rather than a person's. Every hit is recorded; a hit
// matching a rule is stored with `machine: true` and the rule's reason, and never sets opened_at/clicked_at.
// The table is the documentation's too (docs/tracking.md lists it): the first matching rule names the reason.

export type MachineReason = 'head_request' | 'no_user_agent' | 'proxy_prefetch' | 'link_scanner' | 'too_soon';

export interface Hit {
  kind: 'open' | 'click';
  method: string;
  userAgent: string | undefined;
  clientAddress: string;
  /** Seconds since the message was sent (or handed to the provider, while the send is still being recorded). */
  secondsSinceSent: number | null;
  /** An earlier hit of this message and kind came from Google's image proxy. */
  googleProxySeenBefore: boolean;
}

interface Rule {
  reason: MachineReason;
  /** What the rule says, as docs/tracking.md words it. */
  says: string;
  test: (hit: Hit, windowSeconds: number) => boolean;
}

/** Apple's 17.0.0.0/8, from which Mail Privacy Protection fetches every image of a message at delivery. */
export function inAppleRange(address: string): boolean {
  const v4 = address.replace(/^::ffff:/i, '');
  return /^17\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

const GOOGLE_PROXY = /GoogleImageProxy/i;
export const isGoogleImageProxy = (userAgent: string | undefined) => GOOGLE_PROXY.test(userAgent ?? '');
/** Mail security gateways and link previewers that follow every link of a message before its reader does. */
const SCANNER =
  /barracuda|mimecast|proofpoint|bingpreview|safelinks|microsoft office|ms-office|symantec|messagelabs|trend ?micro|forcepoint|sophos|zscaler|ironport/i;
/** Clients that are programs, not mail readers or browsers. */
const GENERIC_BOT =
  /bot\b|bot\/|crawler|spider|scanner|preview|curl\/|wget\/|python-|go-http-client|java\/|okhttp|axios|node-fetch|headlesschrome|phantomjs|libwww|httpclient/i;

export const MACHINE_RULES: readonly Rule[] = [
  {
    reason: 'head_request',
    says: 'A HEAD request (a link checker; a person always GETs).',
    test: (h) => h.method === 'HEAD',
  },
  { reason: 'no_user_agent', says: 'No User-Agent header.', test: (h) => !h.userAgent?.trim() },
  {
    reason: 'proxy_prefetch',
    says: 'An open from Apple Mail Privacy Protection: a client address in 17.0.0.0/8, or the bare User-Agent "Mozilla/5.0" it sends.',
    test: (h) => h.kind === 'open' && (inAppleRange(h.clientAddress) || h.userAgent?.trim() === 'Mozilla/5.0'),
  },
  {
    reason: 'proxy_prefetch',
    says: "An open that is Google's image proxy's (GoogleImageProxy) first fetch of the message; its later fetches count.",
    test: (h) => h.kind === 'open' && isGoogleImageProxy(h.userAgent) && !h.googleProxySeenBefore,
  },
  {
    reason: 'link_scanner',
    says: 'A mail security scanner or link previewer by User-Agent (Barracuda, Mimecast, Proofpoint, Microsoft Safe Links and BingPreview, Symantec, Trend Micro, Forcepoint, Sophos, Zscaler, IronPort), or a generic bot, crawler, HTTP library or headless browser.',
    test: (h) => SCANNER.test(h.userAgent ?? '') || GENERIC_BOT.test(h.userAgent ?? ''),
  },
  {
    reason: 'too_soon',
    says: 'Within TRACKING_MACHINE_WINDOW_SECONDS (default 10) of the send: faster than a person opens or clicks.',
    test: (h, window) => h.secondsSinceSent === null || h.secondsSinceSent < window,
  },
];

/** The reason a hit is a machine's, or null for a person's. */
export function machineReason(hit: Hit, windowSeconds: number): MachineReason | null {
  return MACHINE_RULES.find((rule) => rule.test(hit, windowSeconds))?.reason ?? null;
}
