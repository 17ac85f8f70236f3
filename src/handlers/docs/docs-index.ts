// The ranker behind search_docs: BM25F over the passages' fields (title, heading, tool names, text), a
// small synonym table for the platform's verbs and nouns, and a boost for passages about an operation
// the question names or clearly implies ("revoke api key" → `revoke_api_key`). Deterministic and in
// memory: ties keep corpus order.
import type { DocsPassage } from './docs-passage.ts';
import { createAnalyzer, stem, type Analyzer } from './stemmer.ts';

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
/** How much a synonym counts towards naming an operation. */
const SYNONYM_INTENT = 0.8;
/** The largest operation boost, as a share of the best plain BM25F score of the question. */
const OPERATION_BOOST = 0.6;
/** A passage that mentions the operation, rather than being its contract passage, gets this share of it. */
const MENTION_SHARE = 0.6;

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

interface ToolName {
  tool: string;
  /** Stemmed parts of the name with their weight: rarer among tool names, heavier. */
  parts: Array<{ part: string; weight: number; generic: boolean }>;
}

/**
 * The parts of every tool name. A part that starts many tools (`get`, `list`) is generic: it cannot
 * name an operation alone, so "I get a 429" names no `get_*` tool.
 */
function toolNames(analyze: Analyzer, tools: string[]): ToolName[] {
  const split = tools.map((tool) => ({ tool, parts: analyze(tool).filter((p) => p !== tool) }));
  const withPart = new Map<string, number>();
  const leading = new Map<string, number>();
  for (const { parts } of split) {
    for (const p of new Set(parts)) withPart.set(p, (withPart.get(p) ?? 0) + 1);
    if (parts[0]) leading.set(parts[0], (leading.get(parts[0]) ?? 0) + 1);
  }
  return split.map(({ tool, parts }) => ({
    tool,
    parts: parts.map((part) => ({
      part,
      weight: Math.log(1 + tools.length / (withPart.get(part) ?? 1)),
      generic: (leading.get(part) ?? 0) >= 4,
    })),
  }));
}

/**
 * How strongly the question names each operation: the weighted share of the name's parts among the
 * question's terms (synonyms counting SYNONYM_INTENT), squared; the whole name written out counts 1.
 * Below half, or with only generic parts found, the question does not name it.
 */
function operationIntent(names: ToolName[], terms: Map<string, number>, order: string[]): Map<string, number> {
  const intent = new Map<string, number>();
  for (const { tool, parts } of names) {
    if (terms.get(tool) === 1) {
      intent.set(tool, 1);
      continue;
    }
    if (verbAfterItsObject(parts, order)) continue;
    let total = 0;
    let found = 0;
    let specific = false;
    for (const { part, weight, generic } of parts) {
      const credit = terms.get(part) === 1 ? 1 : terms.has(part) ? SYNONYM_INTENT : 0;
      total += weight;
      found += weight * credit;
      if (credit > 0 && !generic) specific = true;
    }
    const share = total > 0 ? found / total : 0;
    if (specific && share >= 0.5) intent.set(tool, share * share);
  }
  return intent;
}

/**
 * A name's leading generic verb found after its object in the question is the question's own verb, not the
 * operation's: "my agent gets a 403" does not name `get_agent`, "get the agent" does.
 */
function verbAfterItsObject(parts: ToolName['parts'], order: string[]): boolean {
  const [verb, object] = parts;
  if (!verb?.generic || !object) return false;
  const v = order.indexOf(verb.part);
  const o = order.indexOf(object.part);
  return v >= 0 && o >= 0 && v > o;
}

/** The strongest boost a passage earns from the operations the question names. */
function operationBoost(passage: DocsPassage, intent: Map<string, number>): number {
  let boost = 0;
  for (const [tool, strength] of intent) {
    if (passage.source === `openapi:${tool}`) boost = Math.max(boost, strength);
    else if (passage.tools.includes(tool)) boost = Math.max(boost, strength * MENTION_SHARE);
  }
  return boost;
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
