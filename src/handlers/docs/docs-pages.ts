// The guides as pages to read whole (list_docs, get_doc, and the MCP docs:// resources built on them): README.md
// and docs/*.md, the files search_docs cuts into passages. A section is a heading with everything under it
// down to the next heading of its level or higher; its anchor is the one GitHub and search_docs' `source` give.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { githubAnchor } from './markdown-passages.ts';

export interface DocsSection {
  anchor: string;
  heading: string;
  level: number;
  /** Line indexes: the heading's, and the first line past the section. */
  start: number;
  end: number;
}

export interface DocsPage {
  path: string;
  title: string;
  lines: string[];
  sections: DocsSection[];
}

/** Every heading outside code fences, anchored as github-slugger does (a repeated heading gets `-1`, `-2`). */
export function docsPage(path: string, markdown: string): DocsPage {
  const lines = markdown.split(/\r?\n/);
  const seen = new Map<string, number>();
  const sections: DocsSection[] = [];
  let title = '';
  let fence: string | null = null;
  lines.forEach((line, i) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) fence = fence === null ? marker : null;
    const heading = fence === null && !marker ? /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line) : null;
    if (!heading) return;
    const [, hashes, text] = heading;
    const base = githubAnchor(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    if (hashes.length === 1 && !title) title = text;
    sections.push({ anchor: n === 0 ? base : `${base}-${n}`, heading: text, level: hashes.length, start: i, end: 0 });
  });
  for (const [i, s] of sections.entries()) {
    s.end = sections.slice(i + 1).find((next) => next.level <= s.level)?.start ?? lines.length;
  }
  return { path, title: title || path, lines, sections };
}

/** The page's `##` sections: the ones list_docs names (any heading's anchor can be read). */
export const topSections = (page: DocsPage) => page.sections.filter((s) => s.level === 2);

/** A section's Markdown, or the whole page's; undefined for an anchor the page does not have. */
export function sectionText(page: DocsPage, anchor: string | undefined): string | undefined {
  if (anchor === undefined) return page.lines.join('\n').trim();
  const section = page.sections.find((s) => s.anchor === anchor);
  return section && page.lines.slice(section.start, section.end).join('\n').trim();
}

/** README.md, then docs/*.md by name, read from `repoRoot` at each call (a dozen small files). */
export function loadDocsPages(repoRoot: string): DocsPage[] {
  const files = readdirSync(join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...files].map((path) => docsPage(path, readFileSync(join(repoRoot, path), 'utf8')));
}
