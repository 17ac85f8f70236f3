// The knowledge crawler: fetches a source's pages through the SSRF-safe client as a polite crawler
// (identifying User-Agent, robots.txt, a per-host delay, canonical URLs deduplicated, per-page time and
// size caps), extracts their main text, chunks it along headings and indexes it under the source's
// next generation, which becomes current at the end in one transaction. With max_pages above 1 it
// follows same-site links breadth-first. The first page failing fails the fetch with its reason; a
// later page failing is skipped. The job that runs it and publishes the result is ingest-job.ts.
import { insertChunks, type SourceRow } from './knowledge-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { chunkPage } from './chunk.ts';
import { extractPage, UnsupportedContentError } from './extract.ts';
import type { ExtractedPage } from './page-blocks.ts';
import { parseRobots, robotsUrlFor, type Robots } from './robots.ts';
import { canonicalizeUrl, pathAllowed, sameSite } from './urls.ts';
import { OutboundError, outboundApiError } from '../../outbound/outbound-error.ts';
import { OperationCancelled, type OperationWork } from '../operations/operation-job.ts';

const ACCEPT = ['text/html', 'application/xhtml+xml', 'text/plain', 'text/markdown', 'text/x-markdown'];
const ROBOTS_MAX_BYTES = 500 * 1024;
const MAX_ROBOTS_DELAY_MS = 10_000;
const SKIPPED_EXTENSIONS =
  /\.(pdf|jpe?g|png|gif|webp|svg|ico|zip|gz|tgz|mp[34]|mov|avi|woff2?|ttf|css|js|json|xml|rss|atom|docx?|xlsx?|pptx?)$/i;

const DISALLOW_ALL = parseRobots('User-agent: *\nDisallow: /');

interface OriginRobots {
  robots: Robots;
  /** Set when robots.txt could not be read, so its rules are a full disallow: why it could not. */
  unreachable?: string;
  /** For a network failure reading it: the outbound reason (timeout, connection_failed, …). */
  reason?: string;
}

interface CrawlResult {
  pages: number;
  chunks: number;
  title: string | null;
}

/** The reason an outbound failure gives, as the problem a failed operation ends with. */
function fetchProblem(error: unknown, url: string): ApiError | undefined {
  if (error instanceof OutboundError) {
    if (error.reason === 'unsupported_media_type')
      return new ApiError(
        'unsupported_media_type',
        `${url}: ${error.message} (HTML, plain text and Markdown pages only)`,
      );
    const api = outboundApiError(error, 'url');
    return new ApiError(api.code, `${url}: ${error.message}`, { errors: api.errors });
  }
  if (error instanceof UnsupportedContentError)
    return new ApiError('unsupported_media_type', `${url}: ${error.message}`);
  if (error instanceof ApiError) return error;
  return undefined;
}

export async function crawl(
  deps: Deps,
  work: OperationWork,
  source: SourceRow,
  generation: number,
): Promise<CrawlResult> {
  const { crawlDelayMs, pageTimeoutMs, maxPageBytes } = deps.config.knowledge;
  const userAgent = deps.config.outbound.userAgent;
  const robotsByOrigin = new Map<string, OriginRobots>();
  const lastFetchAt = new Map<string, number>();
  const start = new URL(source.url);
  const queue: string[] = [start.href];
  const seen = new Set<string>([canonicalizeUrl(start)]);
  let site = start;
  let pages = 0;
  let chunks = 0;
  let title: string | null = null;
  await work.progress(0, source.max_pages);

  const politely = async (url: URL, robots: Robots | undefined) => {
    const delay = Math.max(
      crawlDelayMs,
      Math.min(MAX_ROBOTS_DELAY_MS, (robots?.crawlDelaySeconds(userAgent) ?? 0) * 1000),
    );
    const wait = (lastFetchAt.get(url.host) ?? 0) + delay - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    lastFetchAt.set(url.host, Date.now());
  };

  // An origin's rules, and why they are "disallow everything" when robots.txt could not be read: RFC 9309
  // treats an unreachable robots.txt (a 5xx or a network failure) as a full disallow, which is not the
  // same thing to tell a user as a site that says no.
  const robotsFor = async (url: URL): Promise<OriginRobots> => {
    const known = robotsByOrigin.get(url.origin);
    if (known) return known;
    const robotsUrl = robotsUrlFor(url);
    let found: OriginRobots;
    try {
      await politely(url, undefined);
      const response = await deps.outbound.fetch(robotsUrl, {
        timeoutMs: pageTimeoutMs,
        maxBytes: ROBOTS_MAX_BYTES,
        signal: work.job.signal,
      });
      if (response.ok) found = { robots: parseRobots(await response.text()) };
      else {
        await response.cancel();
        // RFC 9309: a 4xx means no rules; a 5xx means the site is unreachable, so nothing may be crawled.
        found =
          response.status >= 500
            ? { robots: DISALLOW_ALL, unreachable: `it answered ${response.status}` }
            : { robots: parseRobots('') };
      }
    } catch (error) {
      if (error instanceof OutboundError && error.refused) throw fetchProblem(error, robotsUrl.href);
      if (error instanceof OutboundError)
        found = { robots: DISALLOW_ALL, unreachable: error.message, reason: error.reason };
      else if (work.job.signal.aborted) throw error;
      else found = { robots: DISALLOW_ALL, unreachable: String(error) };
    }
    robotsByOrigin.set(url.origin, found);
    return found;
  };

  while (queue.length > 0 && pages < source.max_pages) {
    await work.throwIfCancelled();
    const url = new URL(queue.shift() as string);
    const first = pages === 0 && chunks === 0;
    try {
      const { robots, unreachable, reason } = await robotsFor(url);
      if (!robots.isAllowed(url.pathname + url.search, userAgent)) {
        if (first && unreachable) {
          const message = `${robotsUrlFor(url).href} could not be read (${unreachable})`;
          throw new ApiError(
            'url_fetch_failed',
            `${message}; a crawler must treat an unreachable robots.txt as disallowing the whole site (RFC 9309), so nothing was fetched. Try again later.`,
            reason ? { errors: [{ field: 'url', code: reason, message }] } : {},
          );
        }
        if (first)
          throw new ApiError(
            'robots_disallowed',
            `${url.href}: the site's robots.txt does not allow fetching this page.`,
          );
        continue;
      }
      await politely(url, robots);
      const response = await deps.outbound.fetch(url, {
        accept: ACCEPT,
        timeoutMs: pageTimeoutMs,
        maxBytes: maxPageBytes,
        signal: work.job.signal,
      });
      if (!response.ok) {
        await response.cancel();
        throw new ApiError('url_fetch_failed', `${url.href}: the page answered ${response.status}.`);
      }
      const finalUrl = new URL(response.url);
      if (first) site = finalUrl;
      const page: ExtractedPage = await extractPage({
        url: finalUrl.href,
        contentType: response.headers.get('content-type') ?? '',
        body: await response.text(),
      });
      // A page whose canonical URL was fetched already is the same page under another address.
      if (page.canonicalUrl && !first) {
        const canonical = canonicalizeUrl(page.canonicalUrl);
        if (seen.has(canonical) && canonical !== canonicalizeUrl(url)) continue;
        seen.add(canonical);
      }
      seen.add(canonicalizeUrl(finalUrl));
      pages += 1;
      title ??= page.title;
      const pieces = chunkPage(page);
      await insertChunks(
        deps.db.sql,
        source.workspace_id,
        deps.ids,
        source.id,
        generation,
        pieces.map((c) => ({
          pageUrl: finalUrl.href,
          pageTitle: page.title,
          headingPath: c.headingPath,
          position: chunks + c.position,
          text: c.text,
        })),
      );
      chunks += pieces.length;
      await work.progress(pages, source.max_pages);
      for (const link of page.links) {
        if (queue.length + pages >= source.max_pages * 4) break;
        const next = new URL(link);
        const key = canonicalizeUrl(next);
        if (seen.has(key) || !sameSite(next, site) || SKIPPED_EXTENSIONS.test(next.pathname)) continue;
        if (!pathAllowed(next.pathname, source.include_paths, source.exclude_paths)) continue;
        seen.add(key);
        queue.push(next.href);
      }
    } catch (error) {
      if (error instanceof OperationCancelled) throw error;
      const problem = fetchProblem(error, url.href);
      if (!problem) throw error;
      if (first) throw problem;
      deps.log.info({ source_id: source.id, url: url.href, reason: problem.message }, 'knowledge page skipped');
    }
  }
  return { pages, chunks, title };
}
