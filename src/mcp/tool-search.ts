// Ranks the fixed tool list for discovery mode's search_tools: BM25F (one BM25 over fields of different
// weights) on a tool's name, summary, description, toolset and parameter names, with light stemming and a
// small table of this domain's synonyms, because an agent asks in its own words ("stop the campaign"),
// not in the tools' ("pause_email_sequence"). The index is built once: the tool list is fixed at start.
import type { ToolDescriptor } from './tool-descriptor.ts';
import { readQuery, terms } from './tool-search-terms.ts';

export interface ToolSearchOptions {
  /** Only this toolset's tools (case-insensitive); an unknown toolset is a `ToolSearchError`. */
  toolset?: string;
  /** 1 to 20, default 5; out-of-range values are clamped. */
  limit?: number;
  /** The connection's selection (toolsets, read-only): a tool it refuses is never returned. */
  allowed?: (name: string) => boolean;
}

export interface ToolSearchHit {
  name: string;
  /** The description's first sentence (two when the first is a fragment such as "Admin only."), capped. */
  description: string;
  toolset?: string;
  score: number;
}

export type ToolSearch = (query: string, options?: ToolSearchOptions) => ToolSearchHit[];

/** What the caller maps to a tool error (isError with this message). No words matching no tool is `[]`, not this. */
export class ToolSearchError extends Error {
  constructor(
    readonly code: 'empty_query' | 'unknown_toolset',
    message: string,
  ) {
    super(message);
    this.name = 'ToolSearchError';
  }
}

export const defaultSearchLimit = 5;
export const maxSearchLimit = 20;
const oneLineMax = 160;
// A first sentence shorter than this ("Admin only.") says too little alone.
const fragmentMax = 30;

const fields = ['name', 'title', 'toolset', 'description', 'params', 'paramText'] as const;
type Field = (typeof fields)[number];
// Name and summary say what a tool does; a description also says what to call next, parameter text least.
const fieldWeight: Record<Field, number> = {
  name: 3,
  title: 2,
  toolset: 1,
  description: 1,
  params: 0.6,
  paramText: 0.2,
};
const k1 = 1.2;
const b = 0.75;
const synonymWeight = 0.5;
// A participle after the first word says which thing ("a paused campaign", "a site we ingested"), not what to do.
const qualifierWeight = 0.7;
const questionWords = new Set(['what', 'which', 'who', 'did', 'does', 'do', 'is', 'are', 'was', 'were', 'has', 'have']);

interface Entry {
  tool: ToolDescriptor;
  line: string;
  /** BM25F's per-term pseudo-frequency: field-weighted, length-normalised counts; it does not depend on the query. */
  weight: Map<string, number>;
}

export function createToolSearch(tools: readonly ToolDescriptor[]): ToolSearch {
  const entries = indexTools(tools);
  const df = new Map<string, number>();
  for (const entry of entries) for (const term of entry.weight.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const idf = (term: string) =>
    Math.log(1 + (entries.length - (df.get(term) ?? 0) + 0.5) / ((df.get(term) ?? 0) + 0.5));
  const toolsets = new Set(tools.flatMap((tool) => (tool.toolset ? [tool.toolset.toLowerCase()] : [])));

  return (query, options = {}) => {
    if (query.trim() === '') throw new ToolSearchError('empty_query', 'query is empty: say in a few words what to do');
    const toolset = options.toolset?.trim().toLowerCase();
    if (toolset !== undefined && !toolsets.has(toolset)) {
      const known = [...toolsets].sort().join(', ');
      throw new ToolSearchError('unknown_toolset', `no toolset "${options.toolset}"; the toolsets are ${known}`);
    }
    const wanted = queryWeights(query, df);
    const asked = new Set([...wanted.values()].flatMap((w) => w.from)).size;
    const exactName = query.trim().toLowerCase().replace(/\s+/g, '_');
    const hits: ToolSearchHit[] = [];
    for (const { tool, line, weight } of entries) {
      if (toolset !== undefined && tool.toolset?.toLowerCase() !== toolset) continue;
      if (options.allowed && !options.allowed(tool.name)) continue;
      // A tool asked for by its exact name comes first whatever its words score.
      const score = bm25f(wanted, asked, weight, idf) + (tool.name === exactName ? 100 : 0);
      if (score > 0) hits.push({ name: tool.name, description: line, toolset: tool.toolset, score: round(score) });
    }
    hits.sort((x, y) => y.score - x.score || x.name.localeCompare(y.name));
    return hits.slice(0, clampLimit(options.limit));
  };
}

/** BM25 over the pseudo-frequencies, times the share of the query's words the tool answers (Lucene's coordination). */
function bm25f(
  wanted: Map<string, QueryTerm>,
  asked: number,
  weight: Map<string, number>,
  idf: (term: string) => number,
) {
  let score = 0;
  const covered = new Set<number>();
  for (const [term, { weight: queryWeight, from }] of wanted) {
    const w = weight.get(term);
    if (w === undefined) continue;
    score += (queryWeight * idf(term) * w) / (k1 + w);
    for (const i of from) covered.add(i);
  }
  return (score * covered.size) / Math.max(1, asked);
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return defaultSearchLimit;
  return Math.min(maxSearchLimit, Math.max(1, Math.floor(limit)));
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}

interface QueryTerm {
  weight: number;
  /** The query words it stands for: a tool answering more of them ranks higher. */
  from: number[];
}

/**
 * A query word weighs 1, a synonym of one half, a two-word verb its meaning in full; words no tool uses count for
 * nothing, so a tool is not marked down for missing them.
 */
function queryWeights(query: string, df: Map<string, number>) {
  const wanted = new Map<string, QueryTerm>();
  const put = (term: string, weight: number, from: number) => {
    if (!df.has(term)) return;
    const known = wanted.get(term) ?? { weight, from: [] };
    known.weight = Math.max(known.weight, weight);
    if (!known.from.includes(from)) known.from.push(from);
    wanted.set(term, known);
  };
  const read = readQuery(query);
  read.forEach(({ word, term, means }, i) => {
    if (term) put(term, i > 0 && word.endsWith('ed') ? qualifierWeight : 1, i);
    for (const other of means) put(other, term ? synonymWeight : 1, i);
  });
  // "Which mailboxes are connected", "did any messages bounce": a question asks to read, not to act.
  const first = query
    .trim()
    .toLowerCase()
    .split(/[^a-z]+/)[0];
  if (questionWords.has(first)) for (const term of ['list', 'get']) put(term, synonymWeight, read.length);
  return wanted;
}

function indexTools(tools: readonly ToolDescriptor[]): Entry[] {
  const names = new Set(tools.map((tool) => tool.name));
  const common = commonParameters(tools);
  const docs = tools.map((tool) => fieldTerms(tool, names, common));
  const averageLength = Object.fromEntries(
    fields.map((field) => [field, docs.reduce((sum, doc) => sum + doc[field].length, 0) / Math.max(1, docs.length)]),
  ) as Record<Field, number>;
  return tools.map((tool, i) => {
    const weight = new Map<string, number>();
    for (const field of fields) {
      const list = docs[i][field];
      const norm = 1 - b + (b * list.length) / (averageLength[field] || 1);
      for (const term of list) weight.set(term, (weight.get(term) ?? 0) + fieldWeight[field] / norm);
    }
    return { tool, line: oneLineDescription(tool), weight };
  });
}

// Another tool named in a description ("Next: get_operation") says what follows, not what this tool does.
function fieldTerms(tool: ToolDescriptor, names: Set<string>, common: Set<string>): Record<Field, string[]> {
  const properties = propertiesOf(tool);
  const description = tool.description.replace(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, (word) =>
    names.has(word) && word !== tool.name ? ' ' : word,
  );
  return {
    name: terms(tool.name),
    title: terms(tool.title),
    toolset: terms(tool.toolset ?? ''),
    description: terms(description),
    params: terms(
      Object.keys(properties)
        .filter((key) => !common.has(key))
        .join(' '),
    ),
    paramText: terms(
      Object.values(properties)
        .map((schema) => descriptionOf(schema))
        .join(' '),
    ),
  };
}

/** Parameters most tools take (idempotency_key, limit, cursor) tell tools apart no better than "the". */
function commonParameters(tools: readonly ToolDescriptor[]): Set<string> {
  const count = new Map<string, number>();
  for (const tool of tools)
    for (const key of Object.keys(propertiesOf(tool))) count.set(key, (count.get(key) ?? 0) + 1);
  return new Set([...count].filter(([, n]) => n >= Math.max(3, tools.length * 0.2)).map(([key]) => key));
}

function propertiesOf(tool: ToolDescriptor): Record<string, unknown> {
  const properties = tool.inputSchema.properties;
  return typeof properties === 'object' && properties !== null ? (properties as Record<string, unknown>) : {};
}

function descriptionOf(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return '';
  const description = (schema as { description?: unknown }).description;
  return typeof description === 'string' ? description : '';
}

/**
 * The description's first sentence, or its first two when the first is a fragment ("Admin only."), capped at
 * 160 characters. A leading paragraph that only repeats the title is skipped: the title is not news.
 */
export function oneLineDescription(tool: ToolDescriptor): string {
  const paragraphs = tool.description
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  if (paragraphs.length > 1 && sameWords(paragraphs[0], tool.title)) paragraphs.shift();
  let line = '';
  for (const sentence of paragraphs.join(' ').split(/(?<=[.!?])\s+(?=[A-Z`(])/)) {
    line = line ? `${line} ${sentence}` : sentence;
    if (line.length >= fragmentMax) break;
  }
  line ||= tool.title;
  if (line.length <= oneLineMax) return line;
  const cut = line.slice(0, oneLineMax - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 100 ? cut.lastIndexOf(' ') : cut.length).replace(/[\s,;:]+$/, '')}…`;
}

function sameWords(a: string, b: string): boolean {
  const key = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  return key(a) === key(b);
}
