import { describe, expect, it } from 'vitest';
import { canonicalizeUrl, pathAllowed, sameSite } from '../../../src/handlers/knowledge/urls.ts';

describe('canonicalizeUrl', () => {
  const cases: Array<[string, { given: string; want: string }]> = [
    [
      'lower-cases scheme and host and drops the default port',
      { given: 'HTTPS://WWW.Example.COM:443/About', want: 'https://www.example.com/About' },
    ],
    ['drops the default http port', { given: 'http://example.com:80/a', want: 'http://example.com/a' }],
    ['keeps a non-default port', { given: 'http://example.com:8080/a', want: 'http://example.com:8080/a' }],
    ['turns an empty path into /', { given: 'https://example.com', want: 'https://example.com/' }],
    ['keeps a trailing slash', { given: 'https://example.com/blog/', want: 'https://example.com/blog/' }],
    ['does not add a trailing slash', { given: 'https://example.com/blog', want: 'https://example.com/blog' }],
    ['drops the fragment', { given: 'https://example.com/a#section-2', want: 'https://example.com/a' }],
    ['collapses dot segments', { given: 'https://example.com/a/./b/../c/', want: 'https://example.com/a/c/' }],
    [
      'removes utm_*, gclid and fbclid in any case',
      {
        given: 'https://example.com/?UTM_Source=x&utm_medium=y&gclid=1&fbclid=2&page=3',
        want: 'https://example.com/?page=3',
      },
    ],
    [
      'sorts the remaining parameters by name',
      { given: 'https://example.com/s?q=shoes&b=2&a=1', want: 'https://example.com/s?a=1&b=2&q=shoes' },
    ],
    [
      'keeps repeated parameters in their order',
      { given: 'https://example.com/s?tag=b&x=1&tag=a', want: 'https://example.com/s?tag=b&tag=a&x=1' },
    ],
    ['drops a query left empty', { given: 'https://example.com/a?utm_campaign=spring', want: 'https://example.com/a' }],
    ['drops a bare question mark', { given: 'https://example.com/a?', want: 'https://example.com/a' }],
    [
      'keeps a parameter without a value apart from an empty one',
      { given: 'https://example.com/a?b=&a', want: 'https://example.com/a?a&b=' },
    ],
    [
      'keeps the encoding of parameter values',
      { given: 'https://example.com/a?q=a+b&r=%2Fx', want: 'https://example.com/a?q=a+b&r=%2Fx' },
    ],
    [
      'spells percent-escapes in the path one way',
      { given: 'https://example.com/%7euser/a%2fb', want: 'https://example.com/~user/a%2Fb' },
    ],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(canonicalizeUrl(given)).toBe(want);
  });

  it('gives the same key to the spellings of one page', () => {
    const spellings = [
      'https://Example.com:443/pricing?b=2&a=1#plans',
      'https://example.com/./pricing?a=1&utm_source=ad&b=2',
      new URL('https://example.com/x/../pricing?a=1&b=2&fbclid=abc'),
    ];
    expect(new Set(spellings.map((u) => canonicalizeUrl(u))).size).toBe(1);
  });

  it('throws on a string that is not a URL', () => {
    expect(() => canonicalizeUrl('not a url')).toThrow(TypeError);
  });
});

describe('sameSite', () => {
  const cases: Array<[string, { a: string; b: string; want: boolean }]> = [
    [
      'treats www and the bare domain as one site',
      { a: 'https://www.acme.example/a', b: 'https://acme.example/b', want: true },
    ],
    ['ignores scheme and port', { a: 'http://acme.example:8080/', b: 'https://acme.example/', want: true }],
    ['ignores the case of the host', { a: 'https://ACME.example/', b: 'https://acme.example/', want: true }],
    ['tells a subdomain apart', { a: 'https://blog.acme.example/', b: 'https://acme.example/', want: false }],
    ['tells another domain apart', { a: 'https://acme.example/', b: 'https://acme.example.evil.test/', want: false }],
    ['strips only a leading www', { a: 'https://wwwacme.example/', b: 'https://acme.example/', want: false }],
  ];
  it.each(cases)('%s', (_name, { a, b, want }) => {
    expect(sameSite(new URL(a), new URL(b))).toBe(want);
  });
});

describe('pathAllowed', () => {
  const cases: Array<[string, { path: string; include?: string[]; exclude?: string[]; want: boolean }]> = [
    ['allows everything without filters', { path: '/anything', want: true }],
    ['allows everything with empty filters', { path: '/anything', include: [], exclude: [], want: true }],
    ['allows a path under an included prefix', { path: '/blog/post-1', include: ['/blog'], want: true }],
    ['allows the included path itself', { path: '/blog', include: ['/blog'], want: true }],
    ['refuses a path outside every included prefix', { path: '/pricing', include: ['/blog', '/docs/'], want: false }],
    ['matches prefixes on segment boundaries', { path: '/blogging-tips', include: ['/blog'], want: false }],
    ['lets a prefix ending in a slash match below it', { path: '/docs/api', include: ['/docs/'], want: true }],
    ['refuses an excluded path', { path: '/blog/drafts/x', exclude: ['/blog/drafts'], want: false }],
    [
      'lets exclusion win over inclusion',
      { path: '/blog/drafts/x', include: ['/blog'], exclude: ['/blog/drafts'], want: false },
    ],
    [
      'allows an included path next to an excluded one',
      { path: '/blog/post', include: ['/blog'], exclude: ['/blog/drafts'], want: true },
    ],
    ['treats / as including everything', { path: '/a/b', include: ['/'], want: true }],
  ];
  it.each(cases)('%s', (_name, { path, include, exclude, want }) => {
    expect(pathAllowed(path, include, exclude)).toBe(want);
  });
});
