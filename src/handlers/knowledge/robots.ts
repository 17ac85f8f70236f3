// robots.txt as RFC 9309 reads it: groups by product token, longest-match Allow/Disallow with `*`
// and `$`, percent-encoding normalised, at most 500 KiB parsed. Crawl-delay is the common extension.

export interface Robots {
  /** Whether `path` (path and query, e.g. `/a?b=1`) may be fetched by the crawler named `userAgent`. */
  isAllowed(path: string, userAgent: string): boolean;
  /** The group's Crawl-delay in seconds, when it gives a valid one. */
  crawlDelaySeconds(userAgent: string): number | undefined;
  /** Sitemap URLs, in file order (they belong to no group). */
  readonly sitemaps: string[];
}

interface Rule {
  allow: boolean;
  pattern: string;
}

interface Group {
  agents: string[];
  rules: Rule[];
  crawlDelay?: number;
}

/** RFC 9309 §2.5: crawlers must parse at least 500 kibibytes; we parse no more. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

export function robotsUrlFor(url: URL): URL {
  return new URL(`${url.protocol}//${url.host}/robots.txt`);
}

export function parseRobots(text: string): Robots {
  const parsed = capped(text);
  const groups = parseGroups(parsed);
  const cache = new Map<string, Group | undefined>();
  const groupOf = (userAgent: string) => {
    const token = crawlerToken(userAgent);
    if (!cache.has(token)) cache.set(token, groupFor(groups, token));
    return cache.get(token);
  };
  return {
    sitemaps: sitemapLines(parsed),
    isAllowed(path, userAgent) {
      const target = normalizePath(path.startsWith('/') ? path : `/${path}`);
      if (target === '/robots.txt') return true;
      let best: Rule | undefined;
      for (const rule of groupOf(userAgent)?.rules ?? []) {
        if (!matches(rule.pattern, target)) continue;
        const longer = !best || rule.pattern.length > best.pattern.length;
        const allowTie = best && rule.pattern.length === best.pattern.length && rule.allow;
        if (longer || allowTie) best = rule;
      }
      return best?.allow ?? true;
    },
    crawlDelaySeconds(userAgent) {
      return groupOf(userAgent)?.crawlDelay;
    },
  };
}

function capped(text: string): string {
  if (Buffer.byteLength(text, 'utf8') <= ROBOTS_MAX_BYTES) return text;
  const head = Buffer.from(text, 'utf8').subarray(0, ROBOTS_MAX_BYTES).toString('utf8');
  // The last line was cut: a partial path would be a different rule, so it goes too.
  return head.slice(0, Math.max(0, head.search(/[\r\n][^\r\n]*$/)));
}

function* lines(text: string): Generator<{ key: string; value: string }> {
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*/, '').trim();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    yield { key: line.slice(0, colon).trim().toLowerCase(), value: line.slice(colon + 1).trim() };
  }
}

function parseGroups(text: string): Group[] {
  const groups: Group[] = [];
  let current: Group | undefined;
  let collectingAgents = false;
  for (const { key, value } of lines(text)) {
    if (key === 'user-agent') {
      if (!collectingAgents || !current) groups.push((current = { agents: [], rules: [] }));
      current.agents.push(value === '*' ? '*' : productToken(value));
      collectingAgents = true;
    } else if ((key === 'allow' || key === 'disallow') && current) {
      collectingAgents = false;
      // An empty path means no rule (RFC 9309 §2.2.2): `Disallow:` allows everything.
      if (value !== '') current.rules.push({ allow: key === 'allow', pattern: normalizePattern(value) });
    } else if (key === 'crawl-delay' && current) {
      collectingAgents = false;
      const seconds = Number(value);
      if (value !== '' && Number.isFinite(seconds) && seconds >= 0) current.crawlDelay ??= seconds;
    }
  }
  return groups;
}

function sitemapLines(text: string): string[] {
  return [...lines(text)].filter((l) => l.key === 'sitemap' && /^https?:\/\//i.test(l.value)).map((l) => l.value);
}

/**
 * The group that applies: all groups naming the crawler's product token (merged, RFC 9309 §2.2.1),
 * else all `*` groups, else none (everything allowed). A group naming the crawler applies even when
 * it has no rules.
 */
function groupFor(groups: Group[], token: string): Group | undefined {
  const named = groups.filter((g) => token !== '' && g.agents.includes(token));
  const chosen = named.length > 0 ? named : groups.filter((g) => g.agents.includes('*'));
  if (chosen.length === 0) return undefined;
  return {
    agents: [],
    rules: chosen.flatMap((g) => g.rules),
    crawlDelay: chosen.find((g) => g.crawlDelay !== undefined)?.crawlDelay,
  };
}

/** The leading run of letters, `_` and `-`, lower-cased: `ExampleBot/1.0` → `examplebot`. */
function productToken(value: string): string {
  return (/^[A-Za-z_-]+/.exec(value)?.[0] ?? '').toLowerCase();
}

/** The crawler's product token from a User-Agent header, including `Mozilla/5.0 (compatible; Bot/1.0)`. */
function crawlerToken(userAgent: string): string {
  const compatible = /^Mozilla\/[^(]*\(compatible;\s*([A-Za-z_-]+)/i.exec(userAgent.trim());
  return compatible ? compatible[1].toLowerCase() : productToken(userAgent.trim());
}

function normalizePattern(value: string): string {
  const pattern = value.startsWith('/') || value.startsWith('*') ? value : `/${value}`;
  return normalizePath(pattern).replace(/\*+/g, '*');
}

/**
 * RFC 9309 §2.2.2: non-ASCII characters are percent-encoded (UTF-8), escapes of unreserved
 * characters are decoded, and the remaining escapes use upper-case hex, so both spellings compare equal.
 */
function normalizePath(path: string): string {
  const encoded = path.replace(/[^\x21-\x7E]/gu, encodeChar);
  return encoded.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

function encodeChar(char: string): string {
  // A lone surrogate has no UTF-8 form; it becomes U+FFFD as a URL parser would make it.
  return /^[\uD800-\uDFFF]$/.test(char) ? '%EF%BF%BD' : encodeURIComponent(char);
}

/**
 * Whether a rule matches the start of a path: `*` matches any run of characters, a final `$`
 * anchors the end. Greedy matching with backtracking to the last `*`, linear in practice.
 */
function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  let p = 0;
  let s = 0;
  let starP = -1;
  let starS = 0;
  while (s < path.length) {
    if (p === body.length && !anchored) return true;
    if (p < body.length && body[p] === '*') {
      starP = p++;
      starS = s;
    } else if (p < body.length && body[p] === path[s]) {
      p++;
      s++;
    } else if (starP >= 0) {
      p = starP + 1;
      s = ++starS;
    } else return false;
  }
  while (p < body.length && body[p] === '*') p++;
  return p === body.length;
}
