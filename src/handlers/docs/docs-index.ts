// The ranker behind search_docs: BM25F over the passages' fields (title, heading, tool names, text), a
// small synonym table for the platform's verbs and nouns, and a boost for passages about an operation
// the question names or clearly implies ("revoke api key" → `revoke_api_key`). Deterministic and in
// memory: ties keep corpus order. Which operation a question names is worked out in operation-intent.ts.
import type { DocsPassage } from './docs-passage.ts';
import { createAnalyzer, stem, type Analyzer } from './stemmer.ts';
import { operationBoost, operationIntent, toolNames } from './operation-intent.ts';

export type DocsHit = DocsPassage & { score: number };

export interface DocsIndex {
  search(question: string, limit: number): DocsHit[];
}

/** Field weight and length normalisation (b): headings and tool names say more than body text. */
const FIELDS = {
  title: { weight: 1, b: 0.3 },
  heading: { weight: 2.5, b: 0.5 },
  tools: { weight: 2, b: 0.75 },
  text: { weight: 1, b: 0.75 },
} as const;
type Field = keyof typeof FIELDS;
const K1 = 1.2;
/** How much a synonym counts against the word the question used. */
const SYNONYM_WEIGHT = 0.5;
/** The largest operation boost, as a share of the best plain BM25F score of the question. */
const OPERATION_BOOST = 0.6;

/**
 * Words a question may use for what the docs call otherwise: each entry is [the question's words, the
 * docs' words], both unstemmed. A question's word then also looks for the docs' words, at SYNONYM_WEIGHT.
 */
const SYNONYMS: Array<[string, string]> = [
  ['stop disable deactivate invalidate kill block', 'revoke'],
  ['revocation', 'revoke'],
  ['stop abort halt', 'cancel'],
  ['remove erase drop purge forget destroy', 'delete'],
  ['delete kick', 'remove'],
  ['connect link authorize authorise attach hook', 'connector oauth connect'],
  ['disconnect unlink', 'revoke connector'],
  ['approve approval allow grant accept consent', 'consent allow connected'],
  ['mailbox inbox mail gmail email google', 'gmail email mailbox'],
  ['import upload scrape crawl fetch learn read index', 'ingest'],
  ['ingest', 'knowledge source'],
  ['website site homepage domain webpage web', 'url site source'],
  ['brand content company product', 'knowledge'],
  ['find lookup query look', 'search'],
  ['notify notified notification alert subscribe push callback', 'webhook event'],
  ['teammate colleague coworker person people user someone', 'member'],
  ['add bring', 'invite'],
  ['token credential secret', 'key jwt'],
  ['mint generate issue new make', 'create'],
  ['change modify edit promote demote', 'update role'],
  ['admin permission permissions', 'role'],
  ['show see view which', 'list'],
  ['server', 'service'],
  ['history audit changed happened log', 'event'],
  ['job task background progress', 'operation'],
  ['poll polling wait finish finished done complete', 'wait_seconds operation'],
  ['page paginate pagination next', 'cursor next_cursor'],
  ['stop pause suspend mute', 'pause disable'],
  ['healthy alive liveness', 'health'],
  ['retry retrying duplicate duplicates twice safely', 'idempotency'],
  ['throttled throttle many slow', '429 rate_limited'],
  ['unauthenticated unauthorized expired', '401'],
  ['forbidden denied', '403'],
  ['missing', '404'],
  ['conflict', '409'],
  ['down unavailable outage', '503 database_unavailable'],
  ['deadlock deadlocked serialization', '503 transaction_conflict'],
  ['timeout timed slow', '503 database_timeout'],
  ['error fails failed failing failure wrong broken problem', 'error'],
  ['sent', 'send'],
  ['try check verify', 'test'],
  ['update stale outdated recrawl refetch resync', 'refresh'],
  ['piece pieces passage passages text', 'chunk'],
  ['start run launch serve install', 'start'],
  ['reconnect renew', 'reconnect_connector_id reconnect'],
  ['rotate rotation replace', 'create revoke rotate'],
  ['signature signed sign verify', 'signature verify'],
];

function synonymTable(analyze: Analyzer): Map<string, string[]> {
  const table = new Map<string, Set<string>>();
  for (const [from, to] of SYNONYMS) {
    const targets = analyze(to);
    for (const word of from.split(' ')) {
      const key = stem(word);
      const set = table.get(key) ?? new Set<string>();
      for (const t of targets) if (t !== key) set.add(t);
      table.set(key, set);
    }
  }
  return new Map([...table].map(([k, v]) => [k, [...v]]));
}

interface IndexedPassage {
  passage: DocsPassage;
  /** BM25F pseudo term frequency: field-weighted, length-normalised counts summed over fields. */
  tf: Map<string, number>;
}

function fieldTerms(analyze: Analyzer, p: DocsPassage): Record<Field, string[]> {
  return {
    title: analyze(p.title),
    heading: analyze(p.heading ?? ''),
    tools: analyze(p.tools.join(' ')),
    text: analyze(p.text),
  };
}

function buildPostings(
  analyze: Analyzer,
  passages: DocsPassage[],
): { indexed: IndexedPassage[]; idf: Map<string, number> } {
  const terms = passages.map((p) => fieldTerms(analyze, p));
  const fields = Object.keys(FIELDS) as Field[];
  const avg = Object.fromEntries(
    fields.map((f) => [f, Math.max(1, terms.reduce((n, t) => n + t[f].length, 0) / Math.max(1, passages.length))]),
  );
  const df = new Map<string, number>();
  const indexed = passages.map((passage, i) => {
    const tf = new Map<string, number>();
    for (const f of fields) {
      const { weight, b } = FIELDS[f];
      const norm = 1 - b + (b * terms[i][f].length) / avg[f];
      for (const term of terms[i][f]) tf.set(term, (tf.get(term) ?? 0) + weight / norm);
    }
    for (const term of tf.keys()) df.set(term, (df.get(term) ?? 0) + 1);
    return { passage, tf };
  });
  const n = passages.length;
  const idf = new Map([...df].map(([term, d]) => [term, Math.log(1 + (n - d + 0.5) / (d + 0.5))]));
  return { indexed, idf };
}

/** The question's terms with their weights: its own words 1, synonyms SYNONYM_WEIGHT. */
function questionTerms(own: string[], synonyms: Map<string, string[]>): Map<string, number> {
  const terms = new Map<string, number>();
  for (const term of own) terms.set(term, 1);
  for (const term of own) {
    for (const alt of synonyms.get(term) ?? []) if (!terms.has(alt)) terms.set(alt, SYNONYM_WEIGHT);
  }
  return terms;
}

export function createDocsIndex(passages: DocsPassage[]): DocsIndex {
  const analyze = createAnalyzer();
  const { indexed, idf } = buildPostings(analyze, passages);
  const synonyms = synonymTable(analyze);
  const names = toolNames(analyze, [...new Set(passages.flatMap((p) => p.tools))].sort());
  const bm25 = (tf: Map<string, number>, terms: Map<string, number>) => {
    let score = 0;
    for (const [term, weight] of terms) {
      const f = tf.get(term);
      if (f) score += weight * (idf.get(term) ?? 0) * (f / (K1 + f));
    }
    return score;
  };
  return {
    search(question, limit) {
      const own = analyze(question);
      const terms = questionTerms(own, synonyms);
      const plain = indexed.map(({ tf }) => bm25(tf, terms));
      const best = Math.max(0, ...plain);
      const intent = operationIntent(names, terms, own);
      return indexed
        .map(({ passage }, i) => ({
          passage,
          i,
          score: plain[i] > 0 ? plain[i] + OPERATION_BOOST * best * operationBoost(passage, intent) : 0,
        }))
        .filter((r) => r.score > 0)
        .sort((a, b) => b.score - a.score || a.i - b.i)
        .slice(0, Math.max(0, limit))
        .map(({ passage, score }) => ({ ...passage, score: Math.round(score * 1e4) / 1e4 }));
    },
  };
}
