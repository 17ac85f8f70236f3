// Reads an HTML page: Readability finds the main text, with the page's `main`, `article` or `body` as
// the fallback when it finds (nearly) nothing; title, canonical URL and links come from the whole page. linkedom
// and Readability load at the first page read (src/load-once.ts).
import { loadOnce } from '../../load-once.ts';
import type { Block, ExtractedPage } from './page-blocks.ts';
import { domBlocks, inlineText, LEVEL_ATTRIBUTE } from './html-blocks.ts';
import { normalizeSpace } from './text-cleanup.ts';
import { resolveHttp } from './urls.ts';

/** Below this many characters of text, Readability is taken to have missed the content. */
const MIN_READABLE_CHARS = 200;
const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;
const BANNER = /cookie|consent|gdpr|onetrust|(^|[\s_-])(newsletter|subscribe|popup|modal|share|sharing)([\s_-]|$)/i;
const JUNK = [
  'script, style, noscript, template, svg, canvas, iframe, object, embed, button, input, select, textarea',
  'nav, footer, dialog, [role=navigation], [role=contentinfo], [role=dialog], [role=alertdialog], [aria-modal=true]',
  '[hidden], [aria-hidden=true], .sr-only, .visually-hidden, .screen-reader-text',
].join(', ');

const htmlLibraries = loadOnce(async () => {
  const [{ parseHTML }, { Readability }] = await Promise.all([import('linkedom'), import('@mozilla/readability')]);
  return { parseHTML, Readability };
});
type HtmlLibraries = Awaited<ReturnType<typeof htmlLibraries>>;

export async function extractHtml(url: string, html: string): Promise<ExtractedPage> {
  const libraries = await htmlLibraries();
  const document = parseDocument(libraries, html);
  const base = baseUrl(document, url);
  const links = pageLinks(document, base);
  const title = pageTitle(document);
  const canonicalUrl = canonical(document, base);
  removeBoilerplate(document);
  const h1 = document.querySelector('h1');
  const topHeading = h1 ? normalizeSpace(inlineText(h1)) : '';
  let blocks = readableBlocks(libraries, document);
  if (textLength(blocks) < MIN_READABLE_CHARS) {
    const fallback = containerBlocks(parseDocument(libraries, html));
    if (textLength(fallback) > textLength(blocks)) blocks = fallback;
  }
  // Readability drops the h1 that repeats the title; the page's outline starts there, so it comes back.
  if (topHeading && blocks.length > 0 && !blocks.some((b) => b.kind === 'heading' && b.text === topHeading)) {
    blocks.unshift({ kind: 'heading', level: 1, text: topHeading });
  }
  return { url, title, canonicalUrl, blocks, links };
}

const PROLOG = /^\s*(<\?xml[^>]*>)?\s*(<!doctype[^>]*>)?/i;

function parseDocument({ parseHTML }: HtmlLibraries, html: string): Document {
  let source = html.replace(/^\uFEFF/, '');
  // linkedom builds no implied elements: content outside an explicit <body> would have no body.
  if (!/<body[\s>]/i.test(source)) {
    const inner = source.replace(PROLOG, '').replace(/<\/?html[^>]*>/gi, '');
    const head = /<head[\s>][\s\S]*?<\/head>/i.exec(inner)?.[0] ?? '';
    source = `<html><head>${head.replace(/^<head[^>]*>|<\/head>$/gi, '')}</head><body>${inner.replace(head, '')}</body></html>`;
  } else if (!/<html[\s>]/i.test(source)) source = `<html>${source.replace(PROLOG, '')}</html>`;
  return parseHTML(source).document;
}

function readableBlocks({ Readability }: HtmlLibraries, document: Document): Block[] {
  // Readability renames h1 to h2; the original level rides along in an attribute it keeps.
  for (const heading of document.querySelectorAll('h1, h2, h3, h4, h5, h6'))
    heading.setAttribute(LEVEL_ATTRIBUTE, heading.tagName.slice(1));
  try {
    const article = new Readability<Node>(document, { serializer: (node) => node }).parse();
    return article?.content ? domBlocks(article.content) : [];
  } catch {
    return [];
  }
}

function containerBlocks(document: Document): Block[] {
  removeBoilerplate(document);
  const root = document.querySelector('main, [role=main]') ?? document.querySelector('article') ?? document.body;
  return root ? domBlocks(root) : [];
}

function removeBoilerplate(document: Document): void {
  for (const el of document.querySelectorAll(JUNK)) el.remove();
  for (const el of document.querySelectorAll('[style]'))
    if (HIDDEN_STYLE.test(el.getAttribute('style') ?? '')) el.remove();
  for (const el of document.querySelectorAll('[id], [class]')) {
    if (/^(html|body|main|article)$/i.test(el.tagName) || !BANNER.test(`${el.id} ${el.getAttribute('class') ?? ''}`))
      continue;
    if ((el.textContent ?? '').length < 1500) el.remove();
  }
  // A site header or sidebar outside the content; a hero header carries a heading and stays.
  for (const el of document.querySelectorAll('header, aside')) {
    if (el.closest('main, article') || (el.tagName === 'HEADER' && el.querySelector('h1, h2, h3, h4, h5, h6')))
      continue;
    el.remove();
  }
}

function baseUrl(document: Document, pageUrl: string): URL {
  const page = new URL(pageUrl);
  const href = document.querySelector('base[href]')?.getAttribute('href');
  const base = href ? resolveHttp(href, page) : null;
  return base ?? page;
}

function relTokens(el: Element): string[] {
  return (el.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
}

/** Every followable http(s) link of the whole page, in document order, without fragments or repeats. */
function pageLinks(document: Document, base: URL): string[] {
  const robots = document.querySelector('meta[name=robots i]')?.getAttribute('content') ?? '';
  if (/\b(nofollow|none)\b/i.test(robots)) return [];
  const links = new Set<string>();
  for (const a of document.querySelectorAll('a[href]')) {
    const href = (a.getAttribute('href') ?? '').trim();
    // Same-document references (`#top`) name the page itself.
    if (href === '' || href.startsWith('#') || relTokens(a).includes('nofollow')) continue;
    const url = resolveHttp(href, base);
    if (!url) continue;
    url.hash = '';
    links.add(url.href);
  }
  return [...links];
}

function pageTitle(document: Document): string | null {
  const candidates = [
    [...document.querySelectorAll('title')].find((t) => !t.closest('svg'))?.textContent,
    document.querySelector('meta[property="og:title"]')?.getAttribute('content'),
    document.querySelector('h1')?.textContent,
  ];
  return candidates.map((c) => normalizeSpace(c ?? '')).find((c) => c !== '') ?? null;
}

function canonical(document: Document, base: URL): string | null {
  const link = [...document.querySelectorAll('link[rel][href]')].find((l) => relTokens(l).includes('canonical'));
  return link ? (resolveHttp(link.getAttribute('href') ?? '', base)?.href ?? null) : null;
}

function textLength(blocks: Block[]): number {
  return blocks.reduce((sum, b) => sum + b.text.length, 0);
}
