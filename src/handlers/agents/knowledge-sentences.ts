// The sentences the grounded writers build from: whole sentences of the retrieved passages, line by line (a
// heading or a menu is a line without a sentence's end, and is left out), each scored by how many of the
// brief's words it contains. A space before punctuation is what a removed link leaves behind ("read about
// our company , our…"), so such a sentence is left out too, as is one a writer refuses (`refused`).
// A quotation is one unit with its marks and the name it is attributed to (src/handlers/agents/quotations.ts), or is
// left out: a writer never gets half of one, nor a customer's words without the marks that say so.
import { attribution, isQuotation, logicalLines, textUnits, type TextUnit } from './quotations.ts';

export interface KnowledgeSentence {
  text: string;
  /** Index of the passage it came from. */
  passage: number;
  score: number;
  /** Reading order across the passages: ties keep it. */
  order: number;
  /** A quotation with its marks and attribution: someone else's words, to show as such. */
  quote: boolean;
}

/** Whether a unit can be used, and as what: null when it holds part of a quotation or an unattributed one. */
function kindOf(unit: TextUnit): 'prose' | 'quote' | null {
  if (unit.broken) return null;
  if (!unit.spans.some(isQuotation)) return 'prose';
  return attribution(unit) ? 'quote' : null;
}

const STARTS = /^[A-Z0-9"“‘'«]/;
/** A quotation may end with its attribution's name and no full stop ("… — Dana Reeve"). */
const ENDS: Record<'prose' | 'quote', RegExp> = { prose: /[.!?]$/, quote: /[.!?]["”’'»]?$|\p{L}$/u };

export function knowledgeSentences(
  texts: string[],
  terms: string[],
  options: { minLength?: number; maxLength?: number; refused: RegExp },
): KnowledgeSentence[] {
  const { minLength = 30, maxLength = Infinity } = options;
  const seen = new Set<string>();
  const out: KnowledgeSentence[] = [];
  texts.forEach((passage, p) => {
    const units = logicalLines(passage).flatMap(textUnits);
    units.forEach((unit, i) => {
      const text = unit.text.replace(/^[-*•]\s*/, '');
      const key = text.toLowerCase();
      const kind = kindOf(unit);
      if (!kind || text.length < minLength || text.length > maxLength || !STARTS.test(text) || !ENDS[kind].test(text))
        return;
      if (/\s[,.;:]|https?:\/\//.test(text) || options.refused.test(text) || seen.has(key)) return;
      seen.add(key);
      const lower = key.replace(/[^a-z0-9 ]/g, ' ');
      const score = terms.filter((t) => lower.includes(t.slice(0, Math.max(4, t.length - 2)))).length;
      out.push({ text, passage: p, score, order: p * 1000 + i, quote: kind === 'quote' });
    });
  });
  return out;
}
