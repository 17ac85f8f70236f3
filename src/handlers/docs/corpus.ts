// The corpus behind search_docs: the service's own documentation cut into passages. README.md and the
// guides in docs/ are split by heading (long sections further at paragraphs), and every operation of the
// contract becomes one passage naming its tool. Pure but for loadDocsCorpus, which reads the files.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DocsPassage {
  id: string;
  /** The document's title, or the operation's summary. */
  title: string;
  /** The heading path inside the document (`Credentials › Operator CLI`), or the operation's method and path. */
  heading: string | null;
  text: string;
  /** `README.md#<anchor>`, `docs/<file>.md#<anchor>` or `openapi:<operationId>`. */
  source: string;
  /** Operation ids the passage names, in order of mention; a contract passage's own comes first. */
  tools: string[];
}

export interface DocsCorpusInput {
  readme: string;
  guides: Array<{ path: string; text: string }>;
  openapi: Record<string, unknown>;
  toolNames: Set<string>;
}

/** Passage size in words: sections longer than MAX_WORDS are cut at paragraphs, aiming above MIN_WORDS. */
const MAX_WORDS = 250;
const MIN_WORDS = 120;

export function buildDocsCorpus(input: DocsCorpusInput): DocsPassage[] {
  return [
    ...markdownPassages('README.md', input.readme, input.toolNames),
    ...input.guides.map((guide) => markdownPassages(guide.path, guide.text, input.toolNames)).flat(),
    ...contractPassages(input.openapi, input.toolNames),
  ];
}

/** Reads README.md and docs/*.md under `repoRoot` (synchronously: it runs once, when the index is built). */
export function loadDocsCorpus(repoRoot: string, openapi: Record<string, unknown>, toolNames: Set<string>): DocsPassage[] {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const files = readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).sort();
  const guides = files.map((f) => ({ path: `docs/${f}`, text: readFileSync(join(repoRoot, 'docs', f), 'utf8') }));
  return buildDocsCorpus({ readme, guides, openapi, toolNames });
}

/** The anchor GitHub gives a heading (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function githubAnchor(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Operation ids named in a text: any identifier inside backticks, and snake_case names anywhere. */
export function toolsMentioned(text: string, toolNames: Set<string>): string[] {
  const found: Array<{ at: number; name: string }> = [];
  for (const span of text.matchAll(/`([^`\n]+)`/g)) {
    for (const id of span[1].matchAll(/(?<![\w.])[A-Za-z_]\w*(?![\w.])/g)) {
      if (toolNames.has(id[0])) found.push({ at: (span.index ?? 0) + (id.index ?? 0), name: id[0] });
    }
  }
  for (const m of text.matchAll(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g)) if (toolNames.has(m[0])) found.push({ at: m.index ?? 0, name: m[0] });
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.name))];
}

interface Section {
  path: string[];
  anchor: string;
  lines: string[];
}

/** `#` is the title, `##` and `###` open sections; deeper headings stay in their section's text. */
function sectionsOf(markdown: string): { title: string; sections: Section[] } {
  const seen = new Map<string, number>();
  const slug = (text: string) => {
    const base = githubAnchor(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n}`;
  };
  let title = '';
  let fence: string | null = null;
  const sections: Section[] = [{ path: [], anchor: '', lines: [] }];
  for (const line of markdown.split(/\r?\n/)) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) fence = fence === null ? marker : null;
    const heading = fence === null && !marker ? /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line) : null;
    const current = sections[sections.length - 1];
    if (!heading) {
      current.lines.push(line);
      continue;
    }
    const [, hashes, text] = heading;
    const anchor = slug(text);
    if (hashes.length === 1 && !title) {
      title = text;
      sections[0].anchor = anchor;
    } else if (hashes.length === 2) sections.push({ path: [text], anchor, lines: [] });
    else if (hashes.length === 3) sections.push({ path: [...current.path.slice(0, 1), text], anchor, lines: [] });
    else current.lines.push(line);
  }
  return { title, sections: sections.filter((s) => s.lines.some((l) => l.trim() !== '')) };
}

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Paragraphs, lists, tables and fenced code, each whole; blank lines outside fences separate them. */
function blocksOf(lines: string[]): string[] {
  const blocks: string[] = [];
  let block: string[] = [];
  let inFence = false;
  for (const line of lines) {
    if (/^\s*(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    if (!inFence && line.trim() === '') {
      if (block.length) blocks.push(block.join('\n'));
      block = [];
    } else block.push(line);
  }
  if (block.length) blocks.push(block.join('\n'));
  return blocks;
}

/** A block too long for one passage, cut at table rows (keeping the header), list items or sentences. */
function unitsOf(block: string): string[] {
  if (wordCount(block) <= MAX_WORDS || /^\s*(`{3,}|~{3,})/.test(block)) return [block];
  const lines = block.split('\n');
  if (lines[0].startsWith('|')) {
    const header = lines.slice(0, 2).join('\n');
    return lines.slice(2).reduce<string[]>((rows, row) => {
      const last = rows.at(-1);
      if (last !== undefined && wordCount(last) + wordCount(row) <= MAX_WORDS) rows[rows.length - 1] = `${last}\n${row}`;
      else rows.push(`${header}\n${row}`);
      return rows;
    }, []);
  }
  const item = /^\s*(?:[-*+]|\d+\.)\s/;
  if (item.test(lines[0])) {
    const items: string[] = [];
    for (const line of lines) {
      if (item.test(line) || items.length === 0) items.push(line);
      else items[items.length - 1] += `\n${line}`;
    }
    return items.flatMap((i) => (wordCount(i) > MAX_WORDS ? i.split(/(?<=[.!?])\s+(?=[A-Z`(*])/) : [i]));
  }
  return block.split(/(?<=[.!?])\s+(?=[A-Z`(*])/);
}

/** Packs units into passages of at most MAX_WORDS where possible, folding a short tail into its predecessor. */
function pack(units: string[]): string[] {
  const chunks: string[][] = [];
  let words = 0;
  for (const unit of units) {
    const n = wordCount(unit);
    if (chunks.length === 0 || (words + n > MAX_WORDS && words >= MIN_WORDS / 2)) {
      chunks.push([unit]);
      words = n;
    } else {
      chunks[chunks.length - 1].push(unit);
      words += n;
    }
  }
  const last = chunks.at(-1);
  const previous = chunks.at(-2);
  if (last && previous && words < MIN_WORDS / 2 && wordCount(previous.join(' ')) + words <= MAX_WORDS * 1.2) {
    previous.push(...(chunks.pop() ?? []));
  }
  return chunks.map((c) => c.join('\n\n'));
}

function markdownPassages(path: string, markdown: string, toolNames: Set<string>): DocsPassage[] {
  const { title, sections } = sectionsOf(markdown);
  return sections.flatMap((section) => {
    const heading = section.path.length ? section.path.join(' › ') : null;
    const source = `${path}#${section.anchor}`;
    return pack(blocksOf(section.lines).flatMap(unitsOf)).map((text, i) => ({
      id: i === 0 ? source : `${source}~${i + 1}`,
      title: title || path,
      heading,
      text,
      source,
      tools: toolsMentioned(`${section.path.at(-1) ?? ''}\n${text}`, toolNames),
    }));
  });
}

// ---- The contract: one passage per operation ----

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'options', 'head', 'trace'];
const STATUS_TITLES: Record<string, string> = {
  '400': 'Bad Request', '401': 'Unauthorized', '403': 'Forbidden', '404': 'Not Found', '405': 'Method Not Allowed',
  '409': 'Conflict', '413': 'Content Too Large', '415': 'Unsupported Media Type', '422': 'Unprocessable Content',
  '429': 'Too Many Requests', '500': 'Internal Server Error', '502': 'Bad Gateway', '503': 'Service Unavailable',
};

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows local `$ref`s (siblings of the reference win, as in OpenAPI 3.1). */
function resolve(doc: Json, node: unknown, depth = 0): Json {
  if (!isObject(node)) return {};
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/') || depth > 20) return node;
  const target = ref.slice(2).split('/').reduce<unknown>((at, key) => (isObject(at) ? at[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), doc);
  const { $ref: _ref, ...siblings } = node;
  return { ...resolve(doc, target, depth + 1), ...siblings };
}

const typeOf = (s: Json) => [s.type].flat().filter((t) => typeof t === 'string' && t !== 'null').join(' or ');

/** A schema in a few words: `integer, 1–50, default 1`, `one of gmail`, `array of string`. */
function schemaWords(doc: Json, raw: unknown): string {
  const s = resolve(doc, raw);
  const words: string[] = [];
  if (Array.isArray(s.enum)) words.push(`one of ${s.enum.join(', ')}`);
  else if (typeOf(s) === 'array') words.push(`array of ${typeOf(resolve(doc, s.items)) || 'values'}`);
  else if (typeOf(s)) words.push(typeOf(s));
  if (s.minimum !== undefined || s.maximum !== undefined) words.push(`${s.minimum ?? ''}–${s.maximum ?? ''}`);
  if (s.default !== undefined) words.push(`default ${JSON.stringify(s.default)}`);
  return words.join(', ');
}

function bodyProperties(doc: Json, op: Json): Array<{ name: string; required: boolean; schema: Json }> {
  const content = resolve(doc, op.requestBody).content;
  const media = isObject(content) ? (content['application/json'] ?? Object.values(content)[0]) : undefined;
  const schema = resolve(doc, isObject(media) ? media.schema : undefined);
  const parts = Array.isArray(schema.allOf) ? schema.allOf.map((p) => resolve(doc, p)) : [schema];
  return parts.flatMap((part) => {
    const required = new Set(Array.isArray(part.required) ? part.required : []);
    return Object.entries(isObject(part.properties) ? part.properties : {}).map(([name, prop]) => ({ name, required: required.has(name), schema: resolve(doc, prop) }));
  });
}

function argumentLines(doc: Json, shared: unknown[], op: Json): string[] {
  const params = new Map<string, Json>();
  for (const p of [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])].map((x) => resolve(doc, x))) params.set(`${p.in}:${p.name}`, p);
  const lines = [...params.values()].map((p) => {
    const name = String(p.name);
    const asArgument = p.in === 'header' ? `; tool argument \`${name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}\`` : '';
    const about = [p.in, p.required ? 'required' : 'optional', schemaWords(doc, p.schema)].filter(Boolean).join(', ');
    return `- \`${name}\` (${about}${asArgument})${p.description ? `: ${p.description}` : ''}`;
  });
  for (const prop of bodyProperties(doc, op)) {
    const about = ['body', prop.required ? 'required' : 'optional', schemaWords(doc, prop.schema)].filter(Boolean).join(', ');
    lines.push(`- \`${prop.name}\` (${about})${typeof prop.schema.description === 'string' ? `: ${prop.schema.description}` : ''}`);
  }
  return lines;
}

function responseLines(doc: Json, op: Json): { success: string | null; errors: string[] } {
  const responses = Object.entries(isObject(op.responses) ? op.responses : {}).sort(([a], [b]) => a.localeCompare(b));
  const describe = ([status, r]: [string, unknown]) => `${status}${STATUS_TITLES[status] ? ` ${STATUS_TITLES[status]}` : ''}: ${resolve(doc, r).description ?? ''}`.trim();
  const success = responses.find(([s]) => /^[23]/.test(s));
  return { success: success ? describe(success) : null, errors: responses.filter(([s]) => /^[45]/.test(s)).map((r) => `- ${describe(r)}`) };
}

function scopeLine(doc: Json, op: Json): string {
  const security = (op.security ?? doc.security) as Array<Record<string, string[]>> | undefined;
  if (Array.isArray(security) && security.length === 0) return 'Public: no credential needed.';
  const scopes = (security ?? []).flatMap((req) => Object.values(req).flat());
  return scopes.length ? `Scope: ${scopes.join(', ')}.` : 'Needs a bearer credential.';
}

function operationPassage(doc: Json, path: string, method: string, item: Json, op: Json & { operationId: string }, toolNames: Set<string>): DocsPassage {
  const id = op.operationId;
  const summary = typeof op.summary === 'string' ? op.summary : id;
  const args = argumentLines(doc, Array.isArray(item.parameters) ? item.parameters : [], op);
  const { success, errors } = responseLines(doc, op);
  // An operation the manifest keeps out of the tool list (a browser page, a liveness probe) says so.
  const kind = toolNames.has(id) ? 'Tool' : 'Operation (not an MCP tool)';
  const text = [
    `${kind} \`${id}\` (${method.toUpperCase()} ${path}): ${summary}. ${scopeLine(doc, op)}`,
    typeof op.description === 'string' ? op.description.trim() : null,
    args.length ? `Arguments:\n${args.join('\n')}` : 'Arguments: none.',
    success ? `Answers ${success}` : null,
    errors.length ? `Errors:\n${errors.join('\n')}` : null,
  ].filter((part): part is string => part !== null).join('\n\n');
  return {
    id: `openapi:${id}`,
    title: summary,
    heading: `${method.toUpperCase()} ${path}`,
    text,
    source: `openapi:${id}`,
    tools: [id, ...toolsMentioned(text, toolNames).filter((t) => t !== id)],
  };
}

function contractPassages(doc: Json, toolNames: Set<string>): DocsPassage[] {
  return Object.entries(isObject(doc.paths) ? doc.paths : {}).flatMap(([path, raw]) => {
    const item = resolve(doc, raw);
    return METHODS.flatMap((method) => {
      const op = item[method];
      return isObject(op) && typeof op.operationId === 'string' ? [operationPassage(doc, path, method, item, { ...op, operationId: op.operationId }, toolNames)] : [];
    });
  });
}
