// Reads plain text (paragraphs between blank lines) and Markdown (ATX headings, code fences, links).
import type { Block, ExtractedPage, HeadingLevel } from './page-blocks.ts';
import { cleanText, normalizeSpace } from './text-cleanup.ts';
import { resolveHttp } from './urls.ts';

const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function plainBlocks(body: string): Block[] {
  return cleanText(body)
    .split(/\n[ \t]*\n/)
    .map((para) => para.split('\n').map(normalizeSpace).filter(Boolean).join('\n'))
    .filter(Boolean)
    .map((text) => ({ kind: 'text', text }));
}

export function extractMarkdown(url: string, body: string): ExtractedPage {
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
      if (
        close &&
        close[1][0] === fence.marker[0] &&
        close[1].length >= fence.marker.length &&
        line.trim() === close[1]
      ) {
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
  for (const m of body.matchAll(/(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?[^)]*\)/g))
    if (!m[1]) found.push({ at: m.index, href: m[2] });
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
