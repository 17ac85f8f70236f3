// Cuts an extracted page into retrieval chunks along its headings: each chunk knows its heading
// path, long sections are split at paragraphs then sentences with a small overlap, and small sibling
// sections are packed together.
import type { Block, ExtractedPage } from './page-blocks.ts';
import { packSection } from './section-packing.ts';
import type { Limits, Section } from './section-shape.ts';

export interface Chunk {
  /** The enclosing headings, outermost first; for merged sibling sections, the path they share. */
  headingPath: string[];
  text: string;
  /** 0-based, in reading order. */
  position: number;
  tokens: number;
}

export interface ChunkOptions {
  /** Chunks are closed at about this size (default 600). */
  targetTokens?: number;
  /** No chunk is larger (default a third above the target: 800); a paragraph may stretch a chunk up to it rather than be cut. */
  maxTokens?: number;
  /** Whole sentences repeated from the end of a chunk at the start of the next one of the same section (default 60, at most a quarter of the target). */
  overlapTokens?: number;
}

/**
 * Tokens estimated as ceil(characters / 4), with no tokenizer loaded: close for English prose with
 * common LLM tokenizers, an under-estimate for code and for scripts without spaces (CJK).
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Room kept in every chunk for its heading line (at most this many characters) or its overlap. */
const HEADING_CHARS = 200;

export function chunkPage(page: ExtractedPage, options: ChunkOptions = {}): Chunk[] {
  const limits = resolveLimits(options);
  const packed = sections(page.blocks)
    .filter((s) => s.paragraphs.length > 0)
    .map((s) => ({ path: s.path, parent: s.parent, texts: packSection(s, limits) }))
    .filter((s) => s.texts.length > 0);
  return mergeSiblings(packed, limits).map((c, position) => ({ ...c, position, tokens: estimateTokens(c.text) }));
}

function resolveLimits(options: ChunkOptions): Limits {
  const {
    targetTokens = 600,
    maxTokens = Math.ceil((targetTokens * 4) / 3),
    overlapTokens = Math.min(60, Math.floor(targetTokens / 4)),
  } = options;
  const whole = [targetTokens, maxTokens, overlapTokens].every(Number.isInteger);
  if (
    !whole ||
    targetTokens < 100 ||
    maxTokens < targetTokens ||
    overlapTokens < 0 ||
    overlapTokens * 4 > targetTokens
  ) {
    throw new RangeError(
      `Invalid chunk sizes: targetTokens ${targetTokens} (at least 100), maxTokens ${maxTokens} (at least the target), overlapTokens ${overlapTokens} (at most a quarter of the target).`,
    );
  }
  const reserve = Math.max(2 * overlapTokens * 4, HEADING_CHARS) + 2;
  return {
    target: targetTokens * 4,
    max: maxTokens * 4,
    overlap: overlapTokens * 4,
    piece: targetTokens * 4 - reserve,
  };
}

/**
 * A heading starts a section; its path is the stack of enclosing headings (an h2 pops an h3 or h2).
 * A heading with no text of its own opens its first subsection's chunk instead (`## Features` above
 * `### Segmentation`), so the chunk text keeps the outline its path describes.
 */
function sections(blocks: Block[]): Section[] {
  const stack: Array<{ level: number; text: string }> = [];
  let current: Section = { path: [], parent: null, heading: null, paragraphs: [] };
  const all = [current];
  for (const block of blocks) {
    if (!block.text.trim()) continue;
    if (block.kind === 'text') {
      current.paragraphs.push(block.text);
      continue;
    }
    while (stack.length > 0 && stack[stack.length - 1].level >= block.level) stack.pop();
    const parent = stack.map((h) => h.text);
    const opensSubsection =
      current.heading !== null && current.paragraphs.length === 0 && samePath(current.path, parent);
    stack.push(block);
    const line = clip(`${'#'.repeat(block.level)} ${block.text}`, HEADING_CHARS);
    const carried = opensSubsection ? `${current.heading}\n\n${line}` : line;
    current = {
      path: [...parent, block.text],
      parent,
      heading: carried.length <= HEADING_CHARS ? carried : line,
      paragraphs: [],
    };
    all.push(current);
  }
  return all;
}

function clip(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

// ---- merging small sections ------------------------------------------------------------------

/** Adjacent one-chunk sections with the same parent share a chunk while it stays under the target; it keeps the path they share. */
function mergeSiblings(
  sections: Array<{ path: string[]; parent: string[] | null; texts: string[] }>,
  limits: Limits,
): Array<{ headingPath: string[]; text: string }> {
  const out: Array<{ headingPath: string[]; text: string }> = [];
  let group: { headingPath: string[]; parent: string[] | null; text: string } | null = null;
  for (const section of sections) {
    const [only] = section.texts;
    const siblings = group?.parent && section.parent && samePath(group.parent, section.parent);
    const joinable =
      siblings && section.texts.length === 1 && group && group.text.length + 2 + only.length <= limits.target;
    if (group && joinable) {
      group.text += `\n\n${only}`;
      group.headingPath = commonPrefix(group.headingPath, section.path);
      continue;
    }
    if (group) out.push({ headingPath: group.headingPath, text: group.text });
    group = section.texts.length === 1 ? { headingPath: section.path, parent: section.parent, text: only } : null;
    if (!group) out.push(...section.texts.map((text) => ({ headingPath: section.path, text })));
  }
  if (group) out.push({ headingPath: group.headingPath, text: group.text });
  return out;
}

function samePath(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((h, i) => h === b[i]);
}

function commonPrefix(a: string[], b: string[]): string[] {
  const n = a.findIndex((h, i) => h !== b[i]);
  return n === -1 ? a.slice(0, b.length) : a.slice(0, n);
}
