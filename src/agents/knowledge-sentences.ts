// The sentences the grounded writers build from: whole sentences of the retrieved passages, line by line (a
// heading or a menu is a line without a sentence's end, and is left out), each scored by how many of the
// brief's words it contains. A space before punctuation is what a removed link leaves behind ("read about
// our company , our…"), so such a sentence is left out too, as is one a writer refuses (`refused`).
export interface KnowledgeSentence {
  text: string;
  /** Index of the passage it came from. */
  passage: number;
  score: number;
  /** Reading order across the passages: ties keep it. */
  order: number;
}

export function knowledgeSentences(texts: string[], terms: string[], options: { minLength?: number; maxLength?: number; refused: RegExp }): KnowledgeSentence[] {
  const { minLength = 30, maxLength = Infinity } = options;
  const seen = new Set<string>();
  const out: KnowledgeSentence[] = [];
  texts.forEach((passage, p) => {
    const parts = passage.split(/\n+/).flatMap((line) => line.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+(?=[A-Z0-9"“])/));
    parts.forEach((raw, i) => {
      const text = raw.trim().replace(/^[-*•]\s*/, '');
      const key = text.toLowerCase();
      if (text.length < minLength || text.length > maxLength || !/^[A-Z0-9"“]/.test(text) || !/[.!?]$/.test(text)) return;
      if (/\s[,.;:]|https?:\/\//.test(text) || options.refused.test(text) || seen.has(key)) return;
      seen.add(key);
      const lower = key.replace(/[^a-z0-9 ]/g, ' ');
      const score = terms.filter((t) => lower.includes(t.slice(0, Math.max(4, t.length - 2)))).length;
      out.push({ text, passage: p, score, order: p * 1000 + i });
    });
  });
  return out;
}
