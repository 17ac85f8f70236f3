// Text analysis for the docs index: tokens, stop words and a light English suffix stemmer. Documents
// and questions go through the same `analyze`, so a word and its inflections meet on one stem
// ("revoke", "revoked", "revoking" → "revok"; "invite", "invitation" → "invit").

const STOP_WORDS = new Set(
  (
    'a about after again all also am an and any are as at be been before being but by can could did do does doing done ' +
    'for from had has have having he her here hers him his how i if in into is it its itself just me might more most ' +
    'must my no nor not now of off on once only or other our ours out over own same she should so some such than that ' +
    'the their them then there these they this those through to too under until up us very was we were what when where ' +
    'while who whom why will with would you your yours want wants need needs please way thing things use used using every everything something anything'
  ).split(' '),
);

/** Phrases that name one thing in two words, joined before tokenizing. */
const PHRASES: Array<[RegExp, string]> = [
  [/\bsign(?:ing|ed)?[\s-]+up\b/g, 'signup'],
  [/\b(?:log|sign)(?:ging|ged|ing|ed)?[\s-]+in\b/g, 'login'],
  [/\be-mail/g, 'email'],
  [/\bset[\s-]+up\b/g, 'setup'],
];

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

const hasVowel = (s: string) => /[aeiouy]/.test(s);
const doubled = (s: string) => s.length > 2 && s.at(-1) === s.at(-2) && !/[aeiouylsz]/.test(s.at(-1) ?? '');

function stripInflection(w: string): string {
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith('ied') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith('s') && !/(ss|us|is)$/.test(w) && w.length > 3) w = w.slice(0, -1);
  for (const suffix of ['ing', 'ed']) {
    if (!w.endsWith(suffix) || w.endsWith('eed')) continue;
    const rest = w.slice(0, -suffix.length);
    if (rest.length < 3 || !hasVowel(rest)) continue;
    if (/(at|bl|iz)$/.test(rest)) return `${rest}e`;
    return doubled(rest) ? rest.slice(0, -1) : rest;
  }
  return w;
}

/** Derivational endings, longest first: [suffix, replacement, shortest stem left]. */
const DERIVATIONS: Array<[string, string, number]> = [
  ['ization', 'ize', 3],
  ['ational', 'ate', 3],
  ['ication', 'y', 3],
  ['ation', 'ate', 3],
  ['ator', 'ate', 3],
  ['ment', '', 4],
  ['ness', '', 3],
  ['able', '', 4],
  ['ible', '', 4],
  ['ful', '', 3],
  ['ly', '', 4],
];

function stripDerivation(w: string): string {
  for (const [suffix, replacement, min] of DERIVATIONS) {
    if (w.endsWith(suffix) && w.length - suffix.length >= min) return w.slice(0, -suffix.length) + replacement;
  }
  if (/[st]ion$/.test(w) && w.length - 3 >= 4) return w.slice(0, -3);
  return w;
}

/** A small suffix stemmer in the spirit of Porter's: plurals, -ing/-ed, common derivations, final -e. */
export function stem(word: string): string {
  if (word.length < 4 || !/^[a-z]+$/.test(word)) return word;
  let w = stripDerivation(stripInflection(word));
  for (const suffix of ['ate', 'ize']) {
    if (w.endsWith(suffix) && w.length - 3 >= 3) w = w.slice(0, -3);
  }
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}

export type Analyzer = (text: string) => string[];

/**
 * The index terms of a text: lower-cased words, stop words dropped, stems. A snake_case identifier
 * (`revoke_api_key`, `connector_not_connected`) gives itself whole and the stems of its parts, so both
 * the exact name and a loose "revoke api key" find it.
 */
export function analyze(text: string, stemOf: (word: string) => string = stem): string[] {
  let lower = text.toLowerCase();
  for (const [pattern, replacement] of PHRASES) lower = lower.replace(pattern, replacement);
  const terms: string[] = [];
  for (const word of lower.match(/[a-z0-9]+(?:_[a-z0-9]+)*/g) ?? []) {
    if (word.includes('_')) {
      terms.push(word);
      for (const part of word.split('_')) if (part.length > 1 && !STOP_WORDS.has(part)) terms.push(stemOf(part));
    } else if (word.length > 1 && !STOP_WORDS.has(word)) {
      terms.push(stemOf(word));
    }
  }
  return terms;
}

/** Stems kept per analyzer; words repeat so much across passages that most lookups hit. */
const MEMO_LIMIT = 50_000;

/** `analyze` with its own memo of stems, for an index to use on its passages and questions. */
export function createAnalyzer(): Analyzer {
  const memo = new Map<string, string>();
  const stemOf = (word: string) => {
    let s = memo.get(word);
    if (s === undefined) {
      s = stem(word);
      if (memo.size < MEMO_LIMIT) memo.set(word, s);
    }
    return s;
  };
  return (text) => analyze(text, stemOf);
}
