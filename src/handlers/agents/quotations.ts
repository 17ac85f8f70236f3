// Quotations in knowledge text, so that no writer presents a customer's words as the sender's: a line is cut
// into units at sentence ends outside quotation marks, so a quotation of several sentences stays one unit;
// a unit runs on to the end of the sentence after a closing mark, so "…" — Dana Reeve, owner. keeps its
// attribution. A mark without its partner (the quotation began in another passage, or never ends) makes the
// unit broken. Curly double marks are unambiguous; a single mark between letters is an apostrophe, one that
// opens a word opens a quotation, and one after a word closes the quotation its partner opened, else it is a
// possessive (or, after punctuation, the end of a quotation whose start is missing). Being wrong here only
// ever leaves a sentence out: a unit with a mark it cannot pair is dropped, never cut.

export interface QuotedSpan {
  /** The words between the marks, without them. */
  inner: string;
  /** Both marks are in the unit. */
  whole: boolean;
}

export interface TextUnit {
  text: string;
  /** Top-level quoted spans (a nested one is part of its outer span's words). */
  spans: QuotedSpan[];
  /** A quotation mark without its partner: the unit holds part of a quotation. */
  broken: boolean;
  /** It ends inside a quotation (one that goes on in a later line, or never ends). */
  open: boolean;
}

const PAIRS: Record<string, string> = { '“': '”', '‘': '’', '«': '»', '"': '"', "'": "'" };
const CLOSERS = new Set(['”', '’', '»', '"', "'"]);
const BEFORE_CLOSE = /[.!?,;:…]/;
const WORD_START = /^$|[\s([{—–―/-]|["“‘«]/;
const SENTENCE_START = /[A-Z0-9"“‘'«(]/;

type Mark = 'open' | 'close' | 'stray' | null;

function straightSingle(text: string, i: number, open: string[]): Mark {
  const prev = text[i - 1] ?? '';
  const next = text[i + 1] ?? '';
  if (/[\p{L}\p{N}]/u.test(prev) && /\p{L}/u.test(next)) return null; // don't, Acme's
  if (text[i] === "'" && WORD_START.test(prev) && next && !/\s/.test(next)) return 'open'; // ’ never opens: ’90s
  // Inside a quotation that opened with its partner it ends it; outside one, after a letter it is a
  // possessive (the shops' pads) and after punctuation the end of a quotation whose start is missing.
  if (!/\s/.test(prev) && open.at(-1) === (text[i] === '’' ? '‘' : "'")) return 'close';
  return BEFORE_CLOSE.test(prev) ? 'stray' : null;
}

function markAt(text: string, i: number, open: string[]): Mark {
  const c = text[i];
  const prev = text[i - 1] ?? '';
  if (c === '“' || c === '‘' || c === '«') return 'open';
  if (c === '”' || c === '»') return open.includes(c === '”' ? '“' : '«') ? 'close' : 'stray';
  if (c === "'" || c === '’') return straightSingle(text, i, open);
  if (c !== '"') return null;
  if (open.includes('"') && !/\s/.test(prev)) return 'close';
  if (WORD_START.test(prev) && text[i + 1] && !/\s/.test(text[i + 1])) return 'open';
  return /\d/.test(prev) ? null : 'stray'; // 27" is inches
}

/** True when the unit ends at the space at `i`: after a sentence's end, not right after a closing mark. */
function endsSentence(text: string, i: number, closedAt: number): boolean {
  let j = i - 1;
  while (j >= 0 && /[)\]]/.test(text[j])) j--;
  if (j === closedAt) return false;
  while (j >= 0 && CLOSERS.has(text[j])) j--;
  return j >= 0 && /[.!?]/.test(text[j]) && SENTENCE_START.test(text.slice(i).trimStart()[0] ?? '');
}

/** One line cut into units; quotation marks are tracked across the whole line. */
export function textUnits(line: string): TextUnit[] {
  const units: TextUnit[] = [];
  const stack: Array<{ mark: string; at: number }> = [];
  let unit: TextUnit = { text: '', spans: [], broken: false, open: false };
  let start = 0;
  let closedAt = -1;
  const finish = (end: number) => {
    if (stack.length) unit.spans.push({ inner: line.slice(stack[0].at + 1, end).trim(), whole: false });
    unit.text = line.slice(start, end).trim();
    if (unit.text) units.push({ ...unit, broken: unit.broken || stack.length > 0, open: stack.length > 0 });
    stack.length = 0;
    unit = { text: '', spans: [], broken: false, open: false };
  };
  for (let i = 0; i < line.length; i++) {
    if (/\s/.test(line[i]) && !stack.length && endsSentence(line, i, closedAt)) {
      finish(i);
      start = i + 1;
      continue;
    }
    const mark = markAt(
      line,
      i,
      stack.map((s) => s.mark),
    );
    if (mark === 'open') stack.push({ mark: line[i], at: i });
    else if (mark === 'stray') {
      unit.broken = true;
      unit.spans.push({ inner: line.slice(start, i).trim(), whole: false });
    } else if (mark === 'close') {
      const opener = stack.map((s) => PAIRS[s.mark]).lastIndexOf(line[i]);
      if (opener < stack.length - 1) unit.broken = true; // an inner quotation left open
      if (opener === 0) unit.spans.push({ inner: line.slice(stack[0].at + 1, i).trim(), whole: true });
      stack.length = opener;
      closedAt = i;
    }
  }
  finish(line.length);
  return units;
}

const openAtEnd = (line: string) => textUnits(line).at(-1)?.open === true;
const ATTRIBUTION_LINE = /^(?:[—–―~]\s*|--?\s+)\p{Lu}/u;
const ENDS_WITH_CLOSE = /["”’'»]$/;

/**
 * A passage as lines where a quotation that runs over a few lines (a blockquote's paragraphs) is one line,
 * and an attribution on a line of its own ("— Dana Reeve") is joined to the quotation just before it.
 */
export function logicalLines(passage: string): string[] {
  const lines = passage
    .split(/\n+/)
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    if (openAtEnd(line)) {
      for (let k = 1; k <= 4 && i + k < lines.length; k++) {
        const joined = lines.slice(i, i + k + 1).join(' ');
        if (openAtEnd(joined)) continue;
        line = joined;
        i += k;
        break;
      }
    }
    if (out.length && ATTRIBUTION_LINE.test(line) && ENDS_WITH_CLOSE.test(out[out.length - 1]))
      out[out.length - 1] += ` ${line}`;
    else out.push(line);
  }
  return out;
}

/** A span is a quotation (someone's words) when it is a sentence or four words or more; "Pro" is a term. */
export const isQuotation = (span: QuotedSpan) => span.inner.split(/\s+/).length >= 4 || /[.!?]/.test(span.inner);

const DASH_NAME = /(?:^|\s)(?:[—–―~]|--?)\s*(\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*)*)/u;
const SPEECH = /\b(?:says?|said|writes|wrote|explains|explained|adds|added|tells|told|puts it|according to)\b/i;
const NAME = /\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)*/gu;
const NOT_NAMES = new Set([
  'As',
  'The',
  'Our',
  'We',
  'He',
  'She',
  'They',
  'It',
  'I',
  'One',
  'A',
  'An',
  'This',
  'That',
  'Their',
  'His',
  'Her',
  'Its',
]);

/** Capitalised words without a leading "The" or "Our": "The Hillside Roastery team" → "Hillside Roastery". */
function nameIn(words: string): string | null {
  const list = words.replace(/[.,]+$/, '').split(/\s+/);
  while (list.length && NOT_NAMES.has(list[0])) list.shift();
  return list.length ? list.join(' ') : null;
}

/** The name a unit's quotation is attributed to ("— Dana Reeve, owner" or "Dana Reeve says:"), or null. */
export function attribution(unit: TextUnit): string | null {
  let outside = unit.text;
  for (const span of unit.spans) outside = outside.replace(span.inner, ' ');
  outside = outside.replace(/["“”‘’«»']\s*["“”‘’«»']/g, ' ');
  const dash = DASH_NAME.exec(outside);
  if (dash) return nameIn(dash[1]);
  if (!SPEECH.test(outside)) return null;
  for (const match of outside.matchAll(NAME)) {
    const name = nameIn(match[0]);
    if (name) return name;
  }
  return null;
}
