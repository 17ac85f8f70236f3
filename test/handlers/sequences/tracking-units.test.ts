// The pure parts of tracking: the machine rules as a table, the token's signature and shape, and what
// applyTracking does to a rendered HTML part.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { inAppleRange, machineReason, type Hit } from '../../../src/handlers/sequences/tracking-rules.ts';
import { signTracking, verifyTracking } from '../../../src/handlers/sequences/tracking-token.ts';
import { applyTracking } from '../../../src/handlers/sequences/tracking-html.ts';
import { renderStep } from '../../../src/handlers/sequences/template.ts';

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
const GOOGLE = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';
const person: Hit = {
  kind: 'open',
  method: 'GET',
  userAgent: BROWSER,
  clientAddress: '203.0.113.7',
  secondsSinceSent: 3600,
  googleProxySeenBefore: false,
};

describe('machineReason', () => {
  const cases: Array<[string, { given: Partial<Hit>; want: string | null }]> = [
    ['counts a browser open an hour after the send as a person', { given: {}, want: null }],
    ['counts a browser click an hour after the send as a person', { given: { kind: 'click' }, want: null }],
    ['names a HEAD request', { given: { method: 'HEAD' }, want: 'head_request' }],
    ['names a missing User-Agent', { given: { userAgent: undefined }, want: 'no_user_agent' }],
    ['names a blank User-Agent', { given: { userAgent: '  ' }, want: 'no_user_agent' }],
    ['names an open from Apple’s 17.0.0.0/8', { given: { clientAddress: '17.1.2.3' }, want: 'proxy_prefetch' }],
    [
      'names an open from Apple’s range as IPv4-mapped IPv6',
      { given: { clientAddress: '::ffff:17.9.9.9' }, want: 'proxy_prefetch' },
    ],
    ['names an open with Apple MPP’s bare User-Agent', { given: { userAgent: 'Mozilla/5.0' }, want: 'proxy_prefetch' }],
    [
      'counts a click from Apple’s range (a person behind iCloud)',
      { given: { kind: 'click', clientAddress: '17.1.2.3' }, want: null },
    ],
    ['names Google’s image proxy’s first fetch', { given: { userAgent: GOOGLE }, want: 'proxy_prefetch' }],
    [
      'counts Google’s image proxy after its first fetch',
      { given: { userAgent: GOOGLE, googleProxySeenBefore: true }, want: null },
    ],
    ['names Barracuda', { given: { kind: 'click', userAgent: 'Barracuda Sentinel (EE)' }, want: 'link_scanner' }],
    ['names Mimecast', { given: { kind: 'click', userAgent: 'Mimecast-URL-Protect/1.0' }, want: 'link_scanner' }],
    ['names Proofpoint', { given: { kind: 'click', userAgent: 'Proofpoint URL Defense' }, want: 'link_scanner' }],
    [
      'names BingPreview (Microsoft Safe Links)',
      { given: { kind: 'click', userAgent: 'Mozilla/5.0 (compatible; BingPreview/1.0b)' }, want: 'link_scanner' },
    ],
    [
      'names a generic bot',
      { given: { kind: 'click', userAgent: 'Mozilla/5.0 (compatible; SomeBot/2.1)' }, want: 'link_scanner' },
    ],
    ['names an HTTP library', { given: { kind: 'click', userAgent: 'curl/8.4.0' }, want: 'link_scanner' }],
    ['names a headless browser', { given: { userAgent: 'Mozilla/5.0 HeadlessChrome/120.0' }, want: 'link_scanner' }],
    ['names an open within the window of the send', { given: { secondsSinceSent: 9.5 }, want: 'too_soon' }],
    [
      'names a click within the window of the send',
      { given: { kind: 'click', secondsSinceSent: 0 }, want: 'too_soon' },
    ],
    ['counts a hit at the end of the window', { given: { secondsSinceSent: 10 }, want: null }],
    ['names a hit on a message whose send is not recorded', { given: { secondsSinceSent: null }, want: 'too_soon' }],
    [
      'names the first rule that matches (HEAD before the scanner)',
      { given: { method: 'HEAD', userAgent: 'curl/8' }, want: 'head_request' },
    ],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(machineReason({ ...person, ...given }, 10)).toBe(want);
  });

  it('knows Apple’s range only', () => {
    expect([
      inAppleRange('17.0.0.1'),
      inAppleRange('170.1.1.1'),
      inAppleRange('117.1.1.1'),
      inAppleRange('local'),
    ]).toEqual([true, false, false, false]);
  });
});

describe('tracking tokens', () => {
  const secret = randomBytes(32);
  const open = {
    kind: 'open' as const,
    workspaceId: 'ws_01jc0000000000000000000000',
    messageId: 'msg_01jc0000000000000000000001',
  };
  const click = { ...open, kind: 'click' as const, link: 3 };

  it('verifies what it signed, for its own kind only', () => {
    expect(verifyTracking(secret, 'open', signTracking(secret, open))).toEqual(open);
    expect(verifyTracking(secret, 'click', signTracking(secret, click))).toEqual(click);
    expect(verifyTracking(secret, 'click', signTracking(secret, open))).toBeUndefined();
    expect(verifyTracking(secret, 'open', signTracking(secret, click))).toBeUndefined();
  });

  it('refuses another secret, an altered payload or MAC, and malformed tokens', () => {
    const token = signTracking(secret, click);
    const [payload, mac] = token.split('.');
    const other = signTracking(secret, { ...click, link: 4 }).split('.')[0];
    for (const bad of [
      signTracking(randomBytes(32), click),
      `${other}.${mac}`,
      `${payload}.${mac.slice(1)}`,
      `${payload}.${mac}.x`,
      payload,
      '',
      '...',
    ])
      expect(verifyTracking(secret, 'click', bad), bad).toBeUndefined();
  });

  it('fits the path pattern and length of the contract', () => {
    const token = signTracking(secret, { ...click, link: 199 });
    expect(token).toMatch(/^[A-Za-z0-9_.-]+$/);
    expect(token.length).toBeLessThanOrEqual(200);
  });
});

describe('applyTracking', () => {
  const unsubscribe = 'https://svc.example/unsubscribe/abc.def';
  const rendered = renderStep(
    {
      subject: 'Hi',
      body: 'See [a](https://a.example/x?y=1&z=2), [b](http://b.example), [mail](mailto:m@example.com).',
    },
    {},
    { postalAddress: '1 Main St', unsubscribeUrl: unsubscribe },
  );
  const url = (t: { kind: 'open' } | { kind: 'click'; link: number }) =>
    t.kind === 'open' ? 'https://svc.example/t/o/P' : `https://svc.example/t/c/L${t.link}`;

  it('rewrites each http(s) link by index and keeps the originals, leaving unsubscribe and mailto links alone', () => {
    const { html, links } = applyTracking(rendered.html, { opens: false, clicks: true }, unsubscribe, url);
    expect(links).toEqual(['https://a.example/x?y=1&z=2', 'http://b.example']);
    expect(html).toContain('<a href="https://svc.example/t/c/L0">a</a>');
    expect(html).toContain('<a href="https://svc.example/t/c/L1">b</a>');
    expect(html).toContain('<a href="mailto:m@example.com">mail</a>');
    expect(html).toContain(`<a href="${unsubscribe}">Unsubscribe</a>`);
    expect(html).not.toContain('<img');
  });

  it('adds one pixel before </body> and changes nothing else when only opens are on', () => {
    const { html, links } = applyTracking(rendered.html, { opens: true, clicks: false }, unsubscribe, url);
    expect(links).toEqual([]);
    expect(html.replace(/<img [^>]+>\n/, '')).toBe(rendered.html);
    expect(html).toMatch(/<img src="https:\/\/svc\.example\/t\/o\/P" width="1" height="1" alt=""[^>]*>\n<\/body>/);
  });

  it('returns the HTML unchanged when tracking is off', () => {
    expect(applyTracking(rendered.html, { opens: false, clicks: false }, unsubscribe, url)).toEqual({
      html: rendered.html,
      links: [],
    });
  });
});
