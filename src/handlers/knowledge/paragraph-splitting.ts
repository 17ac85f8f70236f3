// Cuts a paragraph too long for one chunk: prose into sentences (and a sentence too long into words),
// code into runs of lines fenced again.
/** A piece of chunk text: a whole paragraph, or a sentence or line of one (`sep` joins it to the previous piece of the same paragraph). */
export interface Part {
  text: string;
  para: number;
  sep: string;
  code: boolean;
}

const SENTENCES = new Intl.Segmenter('en', { granularity: 'sentence' });
/** Segmenter breaks after these; they rarely end a sentence. */
const ABBREVIATION = /(^|[\s(])(Mr|Mrs|Ms|Dr|Prof|Sr|Jr|St|Mt|vs|Inc|Ltd|Co|Corp|No|Fig|approx|e\.g|i\.e|[A-Z])\.$/;
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/;

export function isCodeFence(text: string): boolean {
  return FENCE_LINE.test(text);
}

/** A paragraph too long for one chunk: sentences (and lines), or fenced runs of lines for code. */
export function splitParagraph(whole: Part, limit: number): Part[] {
  // A fence whose opening line is itself long is split like prose: re-fencing every piece would not fit.
  if (whole.code && whole.text.split('\n', 1)[0].length <= limit / 4) return splitCode(whole, limit);
  return splitSentences(whole.text, whole.para, '').flatMap((s) =>
    s.text.length <= limit ? [s] : hardSplit(s, limit),
  );
}

/** Sentences of each line; the first of a line joins with a newline, the others with a space. */
export function splitSentences(text: string, para: number, firstSep: string): Part[] {
  const parts: Part[] = [];
  text.split('\n').forEach((line, index) => {
    const sentences: string[] = [];
    for (const { segment } of SENTENCES.segment(line)) {
      const sentence = segment.trim();
      if (!sentence) continue;
      if (sentences.length > 0 && ABBREVIATION.test(sentences[sentences.length - 1]))
        sentences[sentences.length - 1] += ` ${sentence}`;
      else sentences.push(sentence);
    }
    sentences.forEach((sentence, i) =>
      parts.push({ text: sentence, para, sep: i > 0 ? ' ' : index > 0 ? '\n' : firstSep, code: false }),
    );
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
