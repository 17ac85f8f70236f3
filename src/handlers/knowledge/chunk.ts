// Cuts an extracted page into retrieval chunks along its headings: each chunk knows its heading
// path, long sections are split at paragraphs then sentences with a small overlap, and small sibling
// sections are packed together.
import type { Block, ExtractedPage } from './extract.ts';

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

interface Limits {
  /** Sizes in characters (4 per token). */
  target: number;
  max: number;
  overlap: number;
  /** The largest single piece: it fits in a fresh chunk after a heading or an overlap. */
  piece: number;
}

interface Section {
  path: string[];
  /** The path without this section's own heading: sections with the same parent are siblings. Text before the first heading has none. */
  parent: string[] | null;
  heading: string | null;
  paragraphs: string[];
}

/** A chunk is closed before a paragraph that does not fit only once it holds this share of the target; a smaller one is filled with the paragraph's sentences. */
const MIN_FILL = 0.75;
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
  const { targetTokens = 600, maxTokens = Math.ceil((targetTokens * 4) / 3), overlapTokens = Math.min(60, Math.floor(targetTokens / 4)) } = options;
  const whole = [targetTokens, maxTokens, overlapTokens].every(Number.isInteger);
  if (!whole || targetTokens < 100 || maxTokens < targetTokens || overlapTokens < 0 || overlapTokens * 4 > targetTokens) {
    throw new RangeError(`Invalid chunk sizes: targetTokens ${targetTokens} (at least 100), maxTokens ${maxTokens} (at least the target), overlapTokens ${overlapTokens} (at most a quarter of the target).`);
  }
  const reserve = Math.max(2 * overlapTokens * 4, HEADING_CHARS) + 2;
  return { target: targetTokens * 4, max: maxTokens * 4, overlap: overlapTokens * 4, piece: targetTokens * 4 - reserve };
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
    const opensSubsection = current.heading !== null && current.paragraphs.length === 0 && samePath(current.path, parent);
    stack.push(block);
    const line = clip(`${'#'.repeat(block.level)} ${block.text}`, HEADING_CHARS);
    const carried = opensSubsection ? `${current.heading}\n\n${line}` : line;
    current = { path: [...parent, block.text], parent, heading: carried.length <= HEADING_CHARS ? carried : line, paragraphs: [] };
    all.push(current);
  }
  return all;
}

function clip(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

// ---- packing one section ---------------------------------------------------------------------

/** A piece of chunk text: a whole paragraph, or a sentence or line of one (`sep` joins it to the previous piece of the same paragraph). */
interface Part {
  text: string;
  para: number;
  sep: string;
  code: boolean;
}

interface Draft {
  parts: Part[];
  /** Parts at the start that are no new content: the heading line, or the overlap with the previous chunk. */
  lead: number;
  chars: number;
}

function render(parts: Part[]): string {
  return parts.map((p, i) => (i === 0 ? '' : parts[i - 1].para === p.para ? p.sep : '\n\n') + p.text).join('');
}

function packSection(section: Section, limits: Limits): string[] {
  const drafts: Draft[] = [];
  let draft = newDraft(section.heading ? [{ text: section.heading, para: -1, sep: '', code: false }] : []);
  const hasContent = () => draft.parts.length > draft.lead;
  const fits = (part: Part, limit: number) => draft.chars + separator(draft, part).length + part.text.length <= limit;
  const add = (part: Part) => {
    draft.chars += separator(draft, part).length + part.text.length;
    draft.parts.push(part);
  };
  const close = () => {
    drafts.push(draft);
    draft = newDraft(overlapParts(draft, limits.overlap));
  };

  section.paragraphs.forEach((text, para) => {
    const whole: Part = { text, para, sep: '', code: isCodeFence(text) };
    // Whole paragraphs first: up to the target, or up to the maximum rather than be cut.
    for (;;) {
      if (fits(whole, limits.target) || (fits(whole, limits.max) && draft.chars < limits.target)) return add(whole);
      if (!hasContent() || draft.chars < limits.target * MIN_FILL) break;
      close();
    }
    for (const piece of splitParagraph(whole, limits.piece)) {
      if (!fits(piece, limits.target) && hasContent()) close();
      add(piece);
    }
  });
  if (hasContent()) drafts.push(draft);
  return rebalanceTail(drafts, limits).map((d) => render(d.parts));
}

function newDraft(parts: Part[]): Draft {
  return { parts, lead: parts.length, chars: render(parts).length };
}

function separator(draft: Draft, part: Part): string {
  const last = draft.parts[draft.parts.length - 1];
  if (!last) return '';
  return last.para === part.para ? part.sep : '\n\n';
}

/** A short last chunk of a long section goes back into the one before it when that stays under the maximum. */
function rebalanceTail(drafts: Draft[], limits: Limits): Draft[] {
  if (drafts.length < 2) return drafts;
  const last = drafts[drafts.length - 1];
  const previous = drafts[drafts.length - 2];
  const joined = [...previous.parts, ...last.parts.slice(last.lead)];
  if (last.chars >= limits.target / 4 || render(joined).length > limits.max) return drafts;
  return [...drafts.slice(0, -2), { parts: joined, lead: previous.lead, chars: render(joined).length }];
}

/** The last whole sentences of a chunk, up to the overlap size (one sentence up to twice it). */
function overlapParts(draft: Draft, limit: number): Part[] {
  const taken: Part[] = [];
  let chars = 0;
  for (let i = draft.parts.length - 1; i >= 0 && limit > 0; i--) {
    const part = draft.parts[i];
    if (part.code || part.para < 0) break;
    const sentences = splitSentences(part.text, part.para, part.sep);
    for (let j = sentences.length - 1; j >= 0; j--) {
      const size = sentences[j].text.length + 1;
      if (chars + size > limit) return taken.length > 0 || size > 2 * limit ? taken : [sentences[j]];
      taken.unshift(sentences[j]);
      chars += size;
    }
  }
  return taken;
}

// ---- splitting -------------------------------------------------------------------------------

const SENTENCES = new Intl.Segmenter('en', { granularity: 'sentence' });
/** Segmenter breaks after these; they rarely end a sentence. */
const ABBREVIATION = /(^|[\s(])(Mr|Mrs|Ms|Dr|Prof|Sr|Jr|St|Mt|vs|Inc|Ltd|Co|Corp|No|Fig|approx|e\.g|i\.e|[A-Z])\.$/;
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/;

function isCodeFence(text: string): boolean {
  return FENCE_LINE.test(text);
}

/** A paragraph too long for one chunk: sentences (and lines), or fenced runs of lines for code. */
function splitParagraph(whole: Part, limit: number): Part[] {
  // A fence whose opening line is itself long is split like prose: re-fencing every piece would not fit.
  if (whole.code && whole.text.split('\n', 1)[0].length <= limit / 4) return splitCode(whole, limit);
  return splitSentences(whole.text, whole.para, '').flatMap((s) => (s.text.length <= limit ? [s] : hardSplit(s, limit)));
}

/** Sentences of each line; the first of a line joins with a newline, the others with a space. */
function splitSentences(text: string, para: number, firstSep: string): Part[] {
  const parts: Part[] = [];
  text.split('\n').forEach((line, index) => {
    const sentences: string[] = [];
    for (const { segment } of SENTENCES.segment(line)) {
      const sentence = segment.trim();
      if (!sentence) continue;
      if (sentences.length > 0 && ABBREVIATION.test(sentences[sentences.length - 1])) sentences[sentences.length - 1] += ` ${sentence}`;
      else sentences.push(sentence);
    }
    sentences.forEach((sentence, i) => parts.push({ text: sentence, para, sep: i > 0 ? ' ' : index > 0 ? '\n' : firstSep, code: false }));
  });
  return parts;
}

/** A sentence longer than a chunk: cut between words, and inside words longer than a chunk. */
function hardSplit(sentence: Part, limit: number): Part[] {
  const pieces: string[] = [];
  let current = '';
  for (const word of sentence.text.split(/(?<=\s)/)) {
    if (current && current.length + word.length > limit) {
      pieces.push(current);
      current = '';
    }
    let rest = word;
    for (; rest.length > limit; rest = rest.slice(limit)) pieces.push(rest.slice(0, limit));
    current += rest;
  }
  pieces.push(current);
  return pieces
    .map((text) => text.trim())
    .filter(Boolean)
    .map((text, i) => ({ ...sentence, text, sep: i === 0 ? sentence.sep : ' ' }));
}

/** Runs of code lines, each fenced again so every piece still reads as code. */
function splitCode(whole: Part, limit: number): Part[] {
  const lines = whole.text.split('\n');
  const fence = FENCE_LINE.exec(lines[0])?.[1] ?? '```';
  const closed = lines.length > 1 && lines[lines.length - 1].trim() === fence;
  const body = lines.slice(1, closed ? -1 : undefined);
  const room = Math.max(40, limit - lines[0].length - fence.length - 2);
  const runs: string[][] = [[]];
  for (const line of body.flatMap((l) => slices(l, room))) {
    const run = runs[runs.length - 1];
    if (run.length > 0 && run.join('\n').length + 1 + line.length > room) runs.push([line]);
    else run.push(line);
  }
  return runs.map((run) => ({ ...whole, text: [lines[0], ...run, fence].join('\n'), sep: '\n\n' }));
}

function slices(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out.length > 0 ? out : [''];
}

// ---- merging small sections ------------------------------------------------------------------

/** Adjacent one-chunk sections with the same parent share a chunk while it stays under the target; it keeps the path they share. */
function mergeSiblings(sections: Array<{ path: string[]; parent: string[] | null; texts: string[] }>, limits: Limits): Array<{ headingPath: string[]; text: string }> {
  const out: Array<{ headingPath: string[]; text: string }> = [];
  let group: { headingPath: string[]; parent: string[] | null; text: string } | null = null;
  for (const section of sections) {
    const [only] = section.texts;
    const siblings = group?.parent && section.parent && samePath(group.parent, section.parent);
    const joinable = siblings && section.texts.length === 1 && group && group.text.length + 2 + only.length <= limits.target;
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
