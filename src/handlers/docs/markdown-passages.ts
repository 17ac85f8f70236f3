// README.md and the guides in docs/ as passages: split by heading, long sections further at paragraphs.
import { toolsMentioned, type DocsPassage } from './docs-passage.ts';

/** Passage size in words: sections longer than MAX_WORDS are cut at paragraphs, aiming above MIN_WORDS. */
const MAX_WORDS = 250;
const MIN_WORDS = 120;

/** The anchor GitHub gives a heading (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function githubAnchor(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

interface Section {
  path: string[];
  anchor: string;
  lines: string[];
}

/** `#` is the title, `##` and `###` open sections; deeper headings stay in their section's text. */
function sectionsOf(markdown: string): { title: string; sections: Section[] } {
  const seen = new Map<string, number>();
  const slug = (text: string) => {
    const base = githubAnchor(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n}`;
  };
  let title = '';
  let fence: string | null = null;
  const sections: Section[] = [{ path: [], anchor: '', lines: [] }];
  for (const line of markdown.split(/\r?\n/)) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) fence = fence === null ? marker : null;
    const heading = fence === null && !marker ? /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line) : null;
    const current = sections[sections.length - 1];
    if (!heading) {
      current.lines.push(line);
      continue;
    }
    const [, hashes, text] = heading;
    const anchor = slug(text);
    if (hashes.length === 1 && !title) {
      title = text;
      sections[0].anchor = anchor;
    } else if (hashes.length === 2) sections.push({ path: [text], anchor, lines: [] });
    else if (hashes.length === 3) sections.push({ path: [...current.path.slice(0, 1), text], anchor, lines: [] });
    else current.lines.push(line);
  }
  return { title, sections: sections.filter((s) => s.lines.some((l) => l.trim() !== '')) };
}

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Paragraphs, lists, tables and fenced code, each whole; blank lines outside fences separate them. */
function blocksOf(lines: string[]): string[] {
  const blocks: string[] = [];
  let block: string[] = [];
  let inFence = false;
  for (const line of lines) {
    if (/^\s*(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    if (!inFence && line.trim() === '') {
      if (block.length) blocks.push(block.join('\n'));
      block = [];
    } else block.push(line);
  }
  if (block.length) blocks.push(block.join('\n'));
  return blocks;
}

/** A block too long for one passage, cut at table rows (keeping the header), list items or sentences. */
function unitsOf(block: string): string[] {
  if (wordCount(block) <= MAX_WORDS || /^\s*(`{3,}|~{3,})/.test(block)) return [block];
  const lines = block.split('\n');
  if (lines[0].startsWith('|')) {
    const header = lines.slice(0, 2).join('\n');
    return lines.slice(2).reduce<string[]>((rows, row) => {
      const last = rows.at(-1);
      if (last !== undefined && wordCount(last) + wordCount(row) <= MAX_WORDS)
        rows[rows.length - 1] = `${last}\n${row}`;
      else rows.push(`${header}\n${row}`);
      return rows;
    }, []);
  }
  const item = /^\s*(?:[-*+]|\d+\.)\s/;
  if (item.test(lines[0])) {
    const items: string[] = [];
    for (const line of lines) {
      if (item.test(line) || items.length === 0) items.push(line);
      else items[items.length - 1] += `\n${line}`;
    }
    return items.flatMap((i) => (wordCount(i) > MAX_WORDS ? i.split(/(?<=[.!?])\s+(?=[A-Z`(*])/) : [i]));
  }
  return block.split(/(?<=[.!?])\s+(?=[A-Z`(*])/);
}

/** Packs units into passages of at most MAX_WORDS where possible, folding a short tail into its predecessor. */
function pack(units: string[]): string[] {
  const chunks: string[][] = [];
  let words = 0;
  for (const unit of units) {
    const n = wordCount(unit);
    if (chunks.length === 0 || (words + n > MAX_WORDS && words >= MIN_WORDS / 2)) {
      chunks.push([unit]);
      words = n;
    } else {
      chunks[chunks.length - 1].push(unit);
      words += n;
    }
  }
  const last = chunks.at(-1);
  const previous = chunks.at(-2);
  if (last && previous && words < MIN_WORDS / 2 && wordCount(previous.join(' ')) + words <= MAX_WORDS * 1.2) {
    previous.push(...(chunks.pop() ?? []));
  }
  return chunks.map((c) => c.join('\n\n'));
}

export function markdownPassages(path: string, markdown: string, toolNames: Set<string>): DocsPassage[] {
  const { title, sections } = sectionsOf(markdown);
  return sections.flatMap((section) => {
    const heading = section.path.length ? section.path.join(' › ') : null;
    const source = `${path}#${section.anchor}`;
    return pack(blocksOf(section.lines).flatMap(unitsOf)).map((text, i) => ({
      id: i === 0 ? source : `${source}~${i + 1}`,
      title: title || path,
      heading,
      text,
      source,
      tools: toolsMentioned(`${section.path.at(-1) ?? ''}\n${text}`, toolNames),
    }));
  });
}
