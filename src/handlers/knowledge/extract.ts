// Turns a fetched page (HTML, plain text or Markdown) into its title, canonical URL, outgoing links
// and main text as heading and text blocks. HTML goes through Readability, with the page's `main`,
// `article` or `body` as the fallback when Readability finds (nearly) nothing.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;
export type Block = { kind: 'heading'; level: HeadingLevel; text: string } | { kind: 'text'; text: string };

export interface ExtractedPage {
  url: string;
  title: string | null;
  canonicalUrl: string | null;
  blocks: Block[];
  links: string[];
}

export class UnsupportedContentError extends Error {
  readonly code = 'unsupported_media_type' as const;
  constructor(readonly contentType: string) {
    super(`Content type ${contentType || '(none)'} cannot be read as text; expected HTML, plain text or Markdown.`);
    this.name = 'UnsupportedContentError';
  }
}

export function extractPage(input: { url: string; contentType: string; body: string }): ExtractedPage {
  const mediaType = input.contentType.split(';', 1)[0].trim().toLowerCase();
  switch (mediaType) {
    case 'text/html':
    case 'application/xhtml+xml':
      return extractHtml(input.url, input.body);
    case 'text/plain':
      return { url: input.url, title: null, canonicalUrl: null, blocks: plainBlocks(input.body), links: [] };
    case 'text/markdown':
    case 'text/x-markdown':
      return extractMarkdown(input.url, input.body);
    default:
      throw new UnsupportedContentError(input.contentType);
  }
}

// ---- HTML ------------------------------------------------------------------------------------

/** Below this many characters of text, Readability is taken to have missed the content. */
const MIN_READABLE_CHARS = 200;
const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;
const BANNER = /cookie|consent|gdpr|onetrust|(^|[\s_-])(newsletter|subscribe|popup|modal|share|sharing)([\s_-]|$)/i;
const JUNK = [
  'script, style, noscript, template, svg, canvas, iframe, object, embed, button, input, select, textarea',
  'nav, footer, dialog, [role=navigation], [role=contentinfo], [role=dialog], [role=alertdialog], [aria-modal=true]',
  '[hidden], [aria-hidden=true], .sr-only, .visually-hidden, .screen-reader-text',
].join(', ');

function extractHtml(url: string, html: string): ExtractedPage {
  const document = parseDocument(html);
  const base = baseUrl(document, url);
  const links = pageLinks(document, base);
  const title = pageTitle(document);
  const canonicalUrl = canonical(document, base);
  removeBoilerplate(document);
  const h1 = document.querySelector('h1');
  const topHeading = h1 ? normalizeSpace(inlineText(h1)) : '';
  let blocks = readableBlocks(document);
  if (textLength(blocks) < MIN_READABLE_CHARS) {
    const fallback = containerBlocks(parseDocument(html));
    if (textLength(fallback) > textLength(blocks)) blocks = fallback;
  }
  // Readability drops the h1 that repeats the title; the page's outline starts there, so it comes back.
  if (topHeading && blocks.length > 0 && !blocks.some((b) => b.kind === 'heading' && b.text === topHeading)) {
    blocks.unshift({ kind: 'heading', level: 1, text: topHeading });
  }
  return { url, title, canonicalUrl, blocks, links };
}

const PROLOG = /^\s*(<\?xml[^>]*>)?\s*(<!doctype[^>]*>)?/i;

function parseDocument(html: string): Document {
  let source = html.replace(/^\uFEFF/, '');
  // linkedom builds no implied elements: content outside an explicit <body> would have no body.
  if (!/<body[\s>]/i.test(source)) {
    const inner = source.replace(PROLOG, '').replace(/<\/?html[^>]*>/gi, '');
    const head = /<head[\s>][\s\S]*?<\/head>/i.exec(inner)?.[0] ?? '';
    source = `<html><head>${head.replace(/^<head[^>]*>|<\/head>$/gi, '')}</head><body>${inner.replace(head, '')}</body></html>`;
  } else if (!/<html[\s>]/i.test(source)) source = `<html>${source.replace(PROLOG, '')}</html>`;
  return parseHTML(source).document;
}

const LEVEL_ATTRIBUTE = 'data-extract-level';

function readableBlocks(document: Document): Block[] {
  // Readability renames h1 to h2; the original level rides along in an attribute it keeps.
  for (const heading of document.querySelectorAll('h1, h2, h3, h4, h5, h6')) heading.setAttribute(LEVEL_ATTRIBUTE, heading.tagName.slice(1));
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
  for (const el of document.querySelectorAll('[style]')) if (HIDDEN_STYLE.test(el.getAttribute('style') ?? '')) el.remove();
  for (const el of document.querySelectorAll('[id], [class]')) {
    if (/^(html|body|main|article)$/i.test(el.tagName) || !BANNER.test(`${el.id} ${el.getAttribute('class') ?? ''}`)) continue;
    if ((el.textContent ?? '').length < 1500) el.remove();
  }
  // A site header or sidebar outside the content; a hero header carries a heading and stays.
  for (const el of document.querySelectorAll('header, aside')) {
    if (el.closest('main, article') || (el.tagName === 'HEADER' && el.querySelector('h1, h2, h3, h4, h5, h6'))) continue;
    el.remove();
  }
}

function baseUrl(document: Document, pageUrl: string): URL {
  const page = new URL(pageUrl);
  const href = document.querySelector('base[href]')?.getAttribute('href');
  const base = href ? resolveHttp(href, page) : null;
  return base ?? page;
}

function resolveHttp(href: string, base: URL): URL | null {
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
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

// ---- DOM to blocks ---------------------------------------------------------------------------

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'embed', 'button', 'input', 'select', 'textarea', 'nav', 'footer', 'head', 'title', 'img', 'picture', 'video', 'audio', 'map', 'math', 'dialog']);
const BLOCK = new Set(['address', 'article', 'aside', 'blockquote', 'body', 'caption', 'center', 'dd', 'details', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'form', 'header', 'hgroup', 'html', 'li', 'main', 'p', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr']);

/** Stands for `<br>` until a paragraph is written: source newlines are only whitespace in HTML. */
const LINE_BREAK = '\u0001';

class BlockWriter {
  readonly blocks: Block[] = [];
  private parts: string[] = [];
  text(text: string): void {
    this.parts.push(text.replaceAll(LINE_BREAK, ''));
  }
  lineBreak(): void {
    this.parts.push(LINE_BREAK);
  }
  flush(): void {
    const text = this.parts.join('').split(LINE_BREAK).map(normalizeSpace).filter(Boolean).join('\n');
    this.parts = [];
    if (text) this.blocks.push({ kind: 'text', text });
  }
  block(block: Block): void {
    this.flush();
    if (block.text) this.blocks.push(block);
  }
}

function domBlocks(root: Node): Block[] {
  const writer = new BlockWriter();
  walk(root, writer);
  writer.flush();
  return writer.blocks;
}

/** Deeper than this, an element's text is taken flat: pathological nesting must not exhaust the stack. */
const MAX_DEPTH = 300;

function walk(node: Node, out: BlockWriter, depth = 0): void {
  if (depth > MAX_DEPTH) return out.block({ kind: 'text', text: normalizeSpace(node.textContent ?? '') });
  for (const child of node.childNodes) {
    if (child.nodeType === 3) out.text(child.nodeValue ?? '');
    if (child.nodeType !== 1) continue;
    const el = child as Element;
    const tag = el.tagName.toLowerCase();
    if (SKIP.has(tag)) continue;
    if (/^h[1-6]$/.test(tag)) {
      const kept = Number(el.getAttribute(LEVEL_ATTRIBUTE));
      const level = (kept >= 1 && kept <= 6 ? kept : Number(tag[1])) as HeadingLevel;
      out.block({ kind: 'heading', level, text: normalizeSpace(inlineText(el)) });
    } else if (tag === 'br') out.lineBreak();
    else if (tag === 'hr') out.flush();
    else if (tag === 'pre') out.block({ kind: 'text', text: fenced(el.textContent ?? '') });
    else if (tag === 'ul' || tag === 'ol') out.block({ kind: 'text', text: listLines(el, 0).join('\n') });
    else if (tag === 'table' && isDataTable(el)) out.block({ kind: 'text', text: tableLines(el).join('\n') });
    else if (BLOCK.has(tag)) {
      out.flush();
      walk(el, out, depth + 1);
      out.flush();
    } else walk(el, out, depth + 1);
  }
}

/** The text of an element on one line: block children become spaces, lists optionally left out. */
function inlineText(node: Node, skipLists = false, depth = 0): string {
  if (depth > MAX_DEPTH) return node.textContent ?? '';
  let text = '';
  for (const child of node.childNodes) {
    if (child.nodeType === 3) text += child.nodeValue ?? '';
    if (child.nodeType !== 1) continue;
    const tag = (child as Element).tagName.toLowerCase();
    if (SKIP.has(tag) || (skipLists && (tag === 'ul' || tag === 'ol'))) continue;
    const inner = inlineText(child, skipLists, depth + 1);
    text += tag === 'br' || BLOCK.has(tag) ? ` ${inner} ` : inner;
  }
  return text;
}

function fenced(code: string): string {
  const body = code.replace(/^\r?\n/, '').replace(/\s+$/, '');
  if (!body.trim()) return '';
  const fence = body.includes('```') ? '````' : '```';
  return `${fence}\n${body}\n${fence}`;
}

const MAX_LIST_DEPTH = 20;

/** `- item` lines (`1. item` in ordered lists), nested lists indented by two spaces. */
function listLines(list: Element, depth: number): string[] {
  const ordered = list.tagName === 'OL';
  let n = Number(list.getAttribute('start')) || 1;
  const lines: string[] = [];
  for (const item of list.children) {
    if (item.tagName !== 'LI') continue;
    const text = normalizeSpace(inlineText(item, true));
    if (text) lines.push(`${'  '.repeat(depth)}${ordered ? `${n++}.` : '-'} ${text}`);
    for (const nested of item.querySelectorAll('ul, ol')) {
      if (nested.parentElement?.closest('li') !== item) continue;
      lines.push(...(depth < MAX_LIST_DEPTH ? listLines(nested, depth + 1) : [`${'  '.repeat(depth + 1)}- ${normalizeSpace(nested.textContent ?? '')}`]));
    }
  }
  return lines;
}

/** Tables used for layout hold headings, lists or other tables: those are read as ordinary content. */
function isDataTable(table: Element): boolean {
  return !table.querySelector('table, h1, h2, h3, h4, h5, h6, ul, ol, pre, blockquote');
}

/** One line per row; under a header row each cell is labelled with its column (`Plan: Pro; Price: $49`). */
function tableLines(table: Element): string[] {
  const rows = [...table.querySelectorAll('tr')]
    .map((tr) => ({
      head: tr.parentElement?.tagName === 'THEAD' || [...tr.children].every((c) => c.tagName === 'TH'),
      cells: [...tr.children].filter((c) => c.tagName === 'TD' || c.tagName === 'TH').map((c) => normalizeSpace(inlineText(c))),
    }))
    .filter((row) => row.cells.some(Boolean));
  const header = rows.length > 1 && rows[0].head ? rows.shift()?.cells : undefined;
  const captionElement = table.querySelector('caption');
  const caption = captionElement ? normalizeSpace(inlineText(captionElement)) : '';
  const lines = rows.map(({ cells }) =>
    header && header.length === cells.length
      ? cells.map((cell, i) => (cell && header[i] ? `${header[i]}: ${cell}` : cell)).filter(Boolean).join('; ')
      : cells.filter(Boolean).join(' | '),
  );
  return caption ? [caption, ...lines] : lines;
}

// ---- Plain text and Markdown -----------------------------------------------------------------

const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

function plainBlocks(body: string): Block[] {
  return cleanText(body)
    .split(/\n[ \t]*\n/)
    .map((para) => para.split('\n').map(normalizeSpace).filter(Boolean).join('\n'))
    .filter(Boolean)
    .map((text) => ({ kind: 'text', text }));
}

function extractMarkdown(url: string, body: string): ExtractedPage {
  const blocks = markdownBlocks(cleanText(body).replace(/^---\n[\s\S]*?\n---[ \t]*(\n|$)/, ''));
  const title = blocks.find((b) => b.kind === 'heading' && b.level === 1)?.text ?? null;
  return { url, title, canonicalUrl: null, blocks, links: markdownLinks(body, new URL(url)) };
}

/** ATX headings become headings; everything else is text split on blank lines, code fences kept whole. */
function markdownBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let para: string[] = [];
  let fence: { marker: string; lines: string[] } | null = null;
  const flush = () => {
    const joined = para.map((line) => line.trimEnd()).join('\n');
    para = [];
    if (joined.trim()) blocks.push({ kind: 'text', text: joined });
  };
  for (const line of text.split('\n')) {
    if (fence) {
      fence.lines.push(line);
      const close = FENCE.exec(line);
      if (close && close[1][0] === fence.marker[0] && close[1].length >= fence.marker.length && line.trim() === close[1]) {
        blocks.push({ kind: 'text', text: fence.lines.join('\n') });
        fence = null;
      }
      continue;
    }
    const open = FENCE.exec(line);
    const heading = ATX_HEADING.exec(line);
    if (open) {
      flush();
      fence = { marker: open[1], lines: [line] };
    } else if (heading) {
      flush();
      const headingText = normalizeSpace(heading[2] ?? '');
      if (headingText) blocks.push({ kind: 'heading', level: heading[1].length as HeadingLevel, text: headingText });
    } else if (line.trim() === '') flush();
    else para.push(line);
  }
  if (fence) blocks.push({ kind: 'text', text: fence.lines.join('\n') });
  flush();
  return blocks;
}

/** Inline links, autolinks and reference definitions (not images), resolved, in document order. */
function markdownLinks(body: string, base: URL): string[] {
  const found: Array<{ at: number; href: string }> = [];
  for (const m of body.matchAll(/(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?[^)]*\)/g)) if (!m[1]) found.push({ at: m.index, href: m[2] });
  for (const m of body.matchAll(/<(https?:\/\/[^>\s]+)>/g)) found.push({ at: m.index, href: m[1] });
  for (const m of body.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)/gm)) found.push({ at: m.index, href: m[1] });
  const links = new Set<string>();
  for (const { href } of found.sort((a, b) => a.at - b.at)) {
    if (href.startsWith('#')) continue;
    const url = resolveHttp(href, base);
    if (!url) continue;
    url.hash = '';
    links.add(url.href);
  }
  return [...links];
}

function cleanText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '');
}

function normalizeSpace(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u200B-\u200D\u2060\uFEFF\u00AD\u0000-\u0008\u000E-\u001F\u007F]/g, '').replace(/\s+/g, ' ').trim();
}
