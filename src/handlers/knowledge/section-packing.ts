// Packs one section of a page into chunk texts: whole paragraphs up to the target size, longer ones
// split into sentences, each chunk after the first opening with the last sentences of the one before.
import type { Limits, Section } from './section-shape.ts';
import { isCodeFence, splitParagraph, splitSentences, type Part } from './paragraph-splitting.ts';

/** A chunk is closed before a paragraph that does not fit only once it holds this share of the target; a smaller one is filled with the paragraph's sentences. */
const MIN_FILL = 0.75;

interface Draft {
  parts: Part[];
  /** Parts at the start that are no new content: the heading line, or the overlap with the previous chunk. */
  lead: number;
  chars: number;
}

function render(parts: Part[]): string {
  return parts.map((p, i) => (i === 0 ? '' : parts[i - 1].para === p.para ? p.sep : '\n\n') + p.text).join('');
}

export function packSection(section: Section, limits: Limits): string[] {
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
