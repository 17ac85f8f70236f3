// The words of tool search: which ones count, how they are stemmed, and what a person's word means in the
// tools' words. Shared by the index (tool text) and the query, so both sides meet on the same stems.

const stopWords = new Set(
  (
    'a an the to of for in on at by from with into out up about as and or but not no so ' +
    'is are was were be been do does did can could should would will shall may might must have has had ' +
    'i we you he she they it its my our your their his her them us me myself this that these those there here ' +
    'something anything everything ' +
    'what which who whom when where why how all any some please want need let just now'
  ).split(' '),
);

// Each row: words a person uses, and the words the tools use for the same thing (at half weight); a row
// without a right side is a group of words that each mean the others.
const synonymRows: ReadonlyArray<readonly [string, string]> = [
  // what people call things
  ['email mail message', ''],
  ['campaign', 'sequence ad'],
  ['contact prospect person people recipient customer someone', 'lead'],
  ['website site url page web crawl', 'knowledge ingest url'],
  ['mailbox gmail inbox google', 'connector'],
  ['connect', 'connector'],
  ['key token credential', 'api key credential'],
  ['teammate colleague coworker user', 'member'],
  ['answer respond response', 'reply'],
  ['unsubscribe optout opt never', 'unsubscribe suppress'],
  ['csv spreadsheet upload file', 'import export csv'],
  ['register account', 'signup'],
  ['register registered signed joined attendee attend', 'registrant'],
  ['invite', 'invitation registrant'],
  ['notify notification alert', 'webhook event'],
  ['history audit log', 'event'],
  ['job task progress', 'operation'],
  ['approve approval review', ''],
  ['facebook instagram meta', 'ad'],
  ['copy', 'creative'],
  ['article', 'blog post'],
  ['ai bot generator writer', 'agent'],
  ['thread', 'conversation'],
  ['live', 'publish'],
  ['spend budget money', 'ad campaign'],
  ['count many number total', 'count stats'],
  ['finish finished done complete', 'succeeded'],
  ['went outgoing', 'sent'],
  ['look', 'preview render'],
  ['single', 'one'],
  // what people do to them, in the tools' verbs
  ['see show view check find read', 'list get'],
  ['add', 'create enroll invite'],
  ['make new', 'create'],
  ['edit modify set move rename reschedule postpone', 'update'],
  ['remove delete erase forget', ''],
  ['stop halt suspend', 'pause cancel revoke'],
  ['end', 'archive cancel'],
  ['start begin send', 'launch'],
  ['again restart continue', 'resume'],
  ['write draft compose', 'generate create'],
  ['disconnect', 'revoke'],
];

// Two-word verbs mean something neither word does ("call off" a webinar); the first word is matched by its stem.
const phraseRows: ReadonlyArray<readonly [string, string]> = [
  ['call off', 'cancel'],
  ['cut off', 'remove revoke'],
  ['take off', 'remove unpublish'],
  ['take out', 'remove'],
  ['went out', 'sent'],
  ['sign up', 'signup registrant'],
  ['log in', 'login'],
  ['opt out', 'unsubscribe'],
  ['write back', 'reply'],
  ['wrote back', 'reply'],
  ['turn off', 'pause disable'],
  ['turn on', 'resume enable'],
];
const phrases = new Map(phraseRows.map(([phrase, means]) => [phrase, new Set(terms(means))]));

/** Plural, -ing, -ed, -ion and a final e, so "replies", "replied" and "reply" meet; not a full Porter stemmer. */
export function stem(word: string): string {
  if (word.length <= 2) return word;
  let w = word;
  if (/(ies|ied)$/.test(w) && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (/[^su]s$/.test(w) && !w.endsWith('is')) w = w.slice(0, -1);
  if (/ation$/.test(w) && w.length > 7) w = w.slice(0, -5);
  else if (/tion$/.test(w) && w.length > 6) w = w.slice(0, -3);
  if (/ing$/.test(w) && w.length > 5) w = undouble(w.slice(0, -3));
  else if (/ed$/.test(w) && w.length > 4) w = undouble(w.slice(0, -2));
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return w;
}

function undouble(w: string): string {
  return /([^aeioulsz])\1$/.test(w) ? w.slice(0, -1) : w;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !stopWords.has(w));
}

export function terms(text: string): string[] {
  return words(text).map(stem);
}

const synonyms = synonymTable();
const none: ReadonlySet<string> = new Set();

/** One word of a query (its stem in `term`), or a two-word verb (no `term`), and what it means in the tools' words. */
export interface QueryWord {
  word: string;
  term?: string;
  means: ReadonlySet<string>;
}

export function readQuery(query: string): QueryWord[] {
  const tokens = query.toLowerCase().split(/[^a-z0-9]+/);
  const read: QueryWord[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    const phrase = `${stem(tokens[i])} ${tokens[i + 1]}`;
    const meaning = phrases.get(phrase);
    if (meaning) {
      read.push({ word: phrase, means: meaning });
      i += 1;
    } else if (tokens[i].length > 1 && !stopWords.has(tokens[i])) {
      const term = stem(tokens[i]);
      read.push({ word: tokens[i], term, means: synonyms.get(term) ?? none });
    }
  }
  return read;
}

function synonymTable(): Map<string, Set<string>> {
  const table = new Map<string, Set<string>>();
  for (const [side, means] of synonymRows) {
    const left = terms(side);
    for (const term of left) {
      const set = table.get(term) ?? new Set<string>();
      for (const other of means ? terms(means) : left) if (other !== term) set.add(other);
      table.set(term, set);
    }
  }
  return table;
}
