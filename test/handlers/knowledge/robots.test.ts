import { describe, expect, it } from 'vitest';
import { parseRobots, robotsUrlFor, ROBOTS_MAX_BYTES } from '../../../src/handlers/knowledge/robots.ts';

// RFC 9309 §5.1, with its closing EOF marker (an unparseable line).
const rfcExample = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
`;

describe('parseRobots: group selection', () => {
  const robots = parseRobots(rfcExample);
  const cases: Array<[string, { agent: string; path: string; want: boolean }]> = [
    ['applies the named group to its crawler', { agent: 'foobot', path: '/example/page.html', want: true }],
    ['applies the named group instead of *', { agent: 'foobot', path: '/publications/report', want: false }],
    ['matches the product token case-insensitively', { agent: 'FooBot', path: '/other', want: false }],
    [
      'reads the product token from a User-Agent header',
      { agent: 'foobot/2.1 (+https://foo.example/bot)', path: '/other', want: false },
    ],
    [
      'reads the product token from a compatible Mozilla header',
      { agent: 'Mozilla/5.0 (compatible; FooBot/2.1; +https://foo.example)', path: '/other', want: false },
    ],
    [
      'shares a group between consecutive user-agent lines (barbot)',
      { agent: 'barbot', path: '/example/page.html', want: false },
    ],
    [
      'shares a group between consecutive user-agent lines (bazbot)',
      { agent: 'bazbot', path: '/example/page.html', want: false },
    ],
    [
      'does not fall back to * for a crawler with its own group',
      { agent: 'barbot', path: '/example/other.html', want: true },
    ],
    ['applies an empty named group: everything allowed', { agent: 'quxbot', path: '/example/page.html', want: true }],
    ['falls back to * for an unnamed crawler', { agent: 'otherbot', path: '/example/page.html', want: false }],
    ['allows under * what no rule matches', { agent: 'otherbot', path: '/publications/2024', want: true }],
    ['applies *.gif$ under *', { agent: 'otherbot', path: '/images/logo.gif', want: false }],
    ['does not take a longer token for the named one', { agent: 'foobot-news', path: '/images/x.png', want: true }],
  ];
  it.each(cases)('%s', (_name, { agent, path, want }) => {
    expect(robots.isAllowed(path, agent)).toBe(want);
  });

  it('merges groups that name the same crawler', () => {
    const merged = parseRobots(
      'user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n',
    );
    expect(['/foo', '/bar', '/baz', '/qux'].map((p) => merged.isAllowed(p, 'examplebot'))).toEqual([
      false,
      false,
      false,
      true,
    ]);
  });

  it('allows everything when no group applies', () => {
    expect(parseRobots('User-agent: foobot\nDisallow: /').isAllowed('/a', 'otherbot')).toBe(true);
  });
});

describe('parseRobots: rule matching', () => {
  it('uses the longest matching rule (RFC 9309 §5.2)', () => {
    const robots = parseRobots('User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n');
    expect(robots.isAllowed('/example/page/', 'foobot')).toBe(true);
    expect(robots.isAllowed('/example/page/other.html', 'foobot')).toBe(true);
    expect(robots.isAllowed('/example/page/disallowed.gif', 'foobot')).toBe(false);
  });

  it('lets Allow win a tie of equally long rules, in either order', () => {
    expect(parseRobots('User-agent: *\nDisallow: /page\nAllow: /page\n').isAllowed('/page', 'bot')).toBe(true);
    expect(parseRobots('User-agent: *\nAllow: /page\nDisallow: /page\n').isAllowed('/page', 'bot')).toBe(true);
  });

  const wildcards: Array<[string, { rules: string; path: string; want: boolean }]> = [
    ['matches * across characters', { rules: 'Disallow: /*/private/', path: '/team/private/notes', want: false }],
    ['matches * with nothing', { rules: 'Disallow: /a*b', path: '/ab', want: false }],
    ['anchors $ at the end', { rules: 'Disallow: /*.gif$', path: '/images/logo.gif', want: false }],
    ['does not match past a $', { rules: 'Disallow: /*.gif$', path: '/images/logo.gif?size=2', want: true }],
    ['anchors an exact path with $', { rules: 'Disallow: /exact$', path: '/exact/more', want: true }],
    ['matches a prefix without $', { rules: 'Disallow: /exact', path: '/exactly', want: false }],
    ['matches the query string', { rules: 'Disallow: /*?sessionid=', path: '/shop?sessionid=42', want: false }],
    [
      'handles many stars on a long path quickly',
      { rules: 'Disallow: /*a*a*a*a*a*a*a*a*b', path: `/${'a'.repeat(5000)}`, want: true },
    ],
  ];
  it.each(wildcards)('%s', (_name, { rules, path, want }) => {
    expect(parseRobots(`User-agent: *\n${rules}\n`).isAllowed(path, 'bot')).toBe(want);
  });

  it('lets a longer Allow with wildcards beat a shorter Disallow', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /shop/\nAllow: /shop/*/public$\n');
    expect(robots.isAllowed('/shop/shoes/public', 'bot')).toBe(true);
    expect(robots.isAllowed('/shop/shoes/public/x', 'bot')).toBe(false);
  });

  it('compares percent-encoded and literal paths alike (RFC 9309 §2.2.2)', () => {
    expect(parseRobots('User-agent: *\nDisallow: /foo/bar/ツ\n').isAllowed('/foo/bar/%E3%83%84', 'bot')).toBe(false);
    expect(parseRobots('User-agent: *\nDisallow: /foo/bar/%E3%83%84\n').isAllowed('/foo/bar/ツ', 'bot')).toBe(false);
    expect(parseRobots('User-agent: *\nDisallow: /foo/bar/%62%61%7A\n').isAllowed('/foo/bar/baz', 'bot')).toBe(false);
    expect(parseRobots('User-agent: *\nDisallow: /foo/bar/%e3%83%84\n').isAllowed('/foo/bar/%E3%83%84', 'bot')).toBe(
      false,
    );
  });

  it('keeps an encoded reserved character apart from the literal one', () => {
    expect(parseRobots('User-agent: *\nDisallow: /a%2Fb\n').isAllowed('/a/b', 'bot')).toBe(true);
  });

  it('treats an empty Disallow as allowing everything', () => {
    expect(parseRobots('User-agent: *\nDisallow:\n').isAllowed('/anything', 'bot')).toBe(true);
  });

  it('always allows /robots.txt', () => {
    expect(parseRobots('User-agent: *\nDisallow: /\n').isAllowed('/robots.txt', 'bot')).toBe(true);
  });

  it('reads a rule or a path without a leading slash from the root', () => {
    expect(parseRobots('User-agent: *\nDisallow: private\n').isAllowed('/private/x', 'bot')).toBe(false);
    expect(parseRobots('User-agent: *\nDisallow: /private\n').isAllowed('private/x', 'bot')).toBe(false);
  });
});

describe('parseRobots: tolerance', () => {
  it('ignores comments, unknown and unparseable lines, and rules before any group', () => {
    const lines = [
      'Disallow: /before-any-group',
      '# a comment',
      'User-agent: * # everyone',
      'this line means nothing',
      'Noindex: /x',
      ':',
      'Disallow: /private # staff only',
      'Foo bar baz',
    ];
    const robots = parseRobots(lines.join('\r\n'));
    expect(robots.isAllowed('/before-any-group', 'bot')).toBe(true);
    expect(robots.isAllowed('/private/x', 'bot')).toBe(false);
    expect(robots.isAllowed('/x', 'bot')).toBe(true);
  });

  it('reads keys in any case, after a byte order mark, with old Mac line ends', () => {
    expect(parseRobots('\uFEFFUSER-AGENT: *\rDISALLOW: /a\r').isAllowed('/a', 'bot')).toBe(false);
  });

  it('ignores everything after 500 KiB, including the line cut in half', () => {
    const head = 'User-agent: *\nDisallow: /early\n';
    const cut = 'Disallow: /cut-here-and-beyond\n';
    // Pads so that the 500 KiB limit falls inside the `cut` line, right after `Disallow: /cu`.
    const padding = `#${'x'.repeat(ROBOTS_MAX_BYTES - Buffer.byteLength(head) - 'Disallow: /cu'.length - 2)}\n`;
    const robots = parseRobots(`${head}${padding}${cut}Disallow: /late\n`);
    expect(Buffer.byteLength(head + padding + 'Disallow: /cu')).toBe(ROBOTS_MAX_BYTES);
    expect(robots.isAllowed('/early', 'bot')).toBe(false);
    expect(robots.isAllowed('/cu', 'bot')).toBe(true);
    expect(robots.isAllowed('/late', 'bot')).toBe(true);
  });

  it('allows everything for an empty file', () => {
    expect(parseRobots('').isAllowed('/', 'bot')).toBe(true);
  });
});

describe('crawlDelaySeconds', () => {
  const robots = parseRobots(
    'User-agent: *\nCrawl-delay: 2.5\n\nUser-agent: slowbot\nCrawl-delay: 10\nDisallow: /x\n\nUser-agent: oddbot\nCrawl-delay: soon\n',
  );

  it('gives the delay of the matching group', () => {
    expect(robots.crawlDelaySeconds('slowbot/1.0')).toBe(10);
    expect(robots.crawlDelaySeconds('anybot')).toBe(2.5);
  });

  it('is undefined when the group gives none or an invalid one', () => {
    expect(robots.crawlDelaySeconds('oddbot')).toBeUndefined();
    expect(parseRobots('User-agent: *\nDisallow: /').crawlDelaySeconds('bot')).toBeUndefined();
  });
});

describe('sitemaps', () => {
  it('lists absolute sitemap URLs whatever group they sit in', () => {
    const robots = parseRobots(
      'Sitemap: https://acme.example/sitemap.xml\nUser-agent: *\nDisallow: /a\nSitemap: https://acme.example/news.xml\nSitemap: /relative.xml\n',
    );
    expect(robots.sitemaps).toEqual(['https://acme.example/sitemap.xml', 'https://acme.example/news.xml']);
    expect(robots.isAllowed('/a', 'bot')).toBe(false);
  });
});

describe('robotsUrlFor', () => {
  it('points at /robots.txt of the same origin, without credentials, query or fragment', () => {
    expect(robotsUrlFor(new URL('https://user:pw@Acme.example:8443/blog/post?x=1#y')).href).toBe(
      'https://acme.example:8443/robots.txt',
    );
    expect(robotsUrlFor(new URL('http://acme.example/')).href).toBe('http://acme.example/robots.txt');
  });
});
