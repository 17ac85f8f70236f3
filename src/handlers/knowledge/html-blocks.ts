// Walks a DOM tree into heading and text blocks: lists as `- item` lines, data tables one line per
// row, code as fenced blocks, everything else as paragraphs.
import type { Block, HeadingLevel } from './page-blocks.ts';
import { normalizeSpace } from './text-cleanup.ts';

/** Set on headings before Readability renames them; it keeps the attribute, so the original level survives. */
export const LEVEL_ATTRIBUTE = 'data-extract-level';

const SKIP = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'button',
  'input',
  'select',
  'textarea',
  'nav',
  'footer',
  'head',
  'title',
  'img',
  'picture',
  'video',
  'audio',
  'map',
  'math',
  'dialog',
]);
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'form',
  'header',
  'hgroup',
  'html',
  'li',
  'main',
  'p',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
]);

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

export function domBlocks(root: Node): Block[] {
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
export function inlineText(node: Node, skipLists = false, depth = 0): string {
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
      lines.push(
        ...(depth < MAX_LIST_DEPTH
          ? listLines(nested, depth + 1)
          : [`${'  '.repeat(depth + 1)}- ${normalizeSpace(nested.textContent ?? '')}`]),
      );
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
      cells: [...tr.children]
        .filter((c) => c.tagName === 'TD' || c.tagName === 'TH')
        .map((c) => normalizeSpace(inlineText(c))),
    }))
    .filter((row) => row.cells.some(Boolean));
  const header = rows.length > 1 && rows[0].head ? rows.shift()?.cells : undefined;
  const captionElement = table.querySelector('caption');
  const caption = captionElement ? normalizeSpace(inlineText(captionElement)) : '';
  const lines = rows.map(({ cells }) =>
    header && header.length === cells.length
      ? cells
          .map((cell, i) => (cell && header[i] ? `${header[i]}: ${cell}` : cell))
          .filter(Boolean)
          .join('; ')
      : cells.filter(Boolean).join(' | '),
  );
  return caption ? [caption, ...lines] : lines;
}
