// URL identity for the crawler: one canonical spelling per page, what counts as the same site, and
// the include/exclude path filters of a knowledge source.

const TRACKING_PARAM = /^(utm_.*|gclid|fbclid)$/i;
const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * The form of a URL used to tell pages apart. WHATWG parsing already lower-cases the scheme and
 * host, drops default ports, resolves `.`/`..` segments and turns an empty path into `/`; on top of
 * that the fragment and tracking parameters go, the remaining parameters are sorted by name (stable,
 * so repeated names keep their order) and percent-escapes are spelled one way. Parameters keep
 * their original encoding: `?a` and `?a=` stay different, as servers may treat them differently.
 */
export function canonicalizeUrl(url: string | URL): string {
  const parsed = new URL(url);
  parsed.hash = '';
  parsed.pathname = normalizeEscapes(parsed.pathname);
  const params = parsed.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && !TRACKING_PARAM.test(decodeName(pair)))
    .map((pair) => ({ pair, name: decodeName(pair) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  parsed.search = params.length > 0 ? `?${params.map((p) => p.pair).join('&')}` : '';
  return parsed.href;
}

/** Same host, ignoring a leading `www.`; scheme and port do not matter. */
export function sameSite(a: URL, b: URL): boolean {
  return bareHost(a) === bareHost(b);
}

/**
 * Whether a path passes a source's filters. A filter matches the path when it is a prefix of it
 * on segment boundaries (`/blog` matches `/blog` and `/blog/post`, not `/blogging`; `/blog/`
 * and `/` match everything below them). Exclusions win; no inclusions means everything.
 */
export function pathAllowed(path: string, include: readonly string[] = [], exclude: readonly string[] = []): boolean {
  if (exclude.some((prefix) => underPrefix(path, prefix))) return false;
  return include.length === 0 || include.some((prefix) => underPrefix(path, prefix));
}

function underPrefix(path: string, prefix: string): boolean {
  if (prefix === '') return true;
  if (!path.startsWith(prefix)) return false;
  if (prefix.endsWith('/') || path.length === prefix.length) return true;
  return '/?#'.includes(path[prefix.length]);
}

function bareHost(url: URL): string {
  return url.hostname.toLowerCase().replace(/^www\./, '');
}

function decodeName(pair: string): string {
  const name = pair.split('=', 1)[0].replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** Upper-case hex in percent-escapes and decode the ones that stand for unreserved characters. */
function normalizeEscapes(path: string): string {
  return path.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/** The href resolved against `base` when it is a valid http(s) URL; anything else is null. */
export function resolveHttp(href: string, base: URL): URL | null {
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}
