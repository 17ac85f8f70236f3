// Makes self-contained JSON Schemas for MCP tools: references inlined, recursion cut, the whole bounded by a size
// budget, OpenAPI 3.0 dialect converted to JSON Schema 2020-12, keywords strict clients reject removed.
//
// Size, not only depth: in a large mutually recursive group (Stripe's has 71 schemas) every schema refers to
// several others, so inlining to a fixed depth multiplies without bound. The inliner tries depth 0, 1, 2, ...
// (references open at once) and keeps the deepest result that fits the budget, each attempt abandoned as soon
// as it outgrows it, so the work per schema is bounded too. Every branch it cuts becomes a described stub.
import { decodePointerSegment, deref, isObject, pointerGet, type Json, type JsonObject } from './load.ts';
import { makeNullable, splitTypeList, typesOf } from './portable-types.ts';
import { fitsType, keptKeyword } from './schema-keywords.ts';

export interface InlineOptions {
  /** `input` drops readOnly properties, `output` drops writeOnly ones. */
  mode: 'input' | 'output';
  /** The most references open at once; the size budget usually stops the inliner before. */
  maxRefDepth?: number;
  /** Size budget: characters of the schema's compact JSON. */
  maxChars?: number;
  /**
   * Leaves out the annotation keywords the document wrote (`description`, `format`, `default`), which assert
   * nothing about a value; every assertion stays, and so do the notes on cut branches.
   */
  dropAnnotations?: boolean;
}

const DEFAULT_MAX_CHARS = 16 * 1024;
/** The kept keywords that only annotate (2020-12 reads `format` as an annotation unless a validator opts in). */
const ANNOTATIONS = new Set(['description', 'format', 'default']);

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_VALUES = new Set(['not', 'contains', 'propertyNames', 'if', 'then', 'else']);

/** Resolved local references per document: every tool walks the same few hundred schemas again. */
const targets = new WeakMap<JsonObject, Map<string, Json | undefined>>();

/** The value a `#/...` reference points to, or undefined when it cannot be resolved. */
function lookup(doc: JsonObject, ref: string): Json | undefined {
  const memo = targets.get(doc) ?? new Map<string, Json | undefined>();
  targets.set(doc, memo);
  if (!memo.has(ref)) {
    try {
      memo.set(ref, ref.startsWith('#') ? deref(doc, pointerGet(doc, ref.slice(1))) : {});
    } catch {
      memo.set(ref, undefined);
    }
  }
  return memo.get(ref);
}

/** Follows local references; an unresolvable one reads as an empty schema rather than failing codegen. */
function safeDeref(doc: JsonObject, value: Json): Json {
  return isObject(value) && typeof value.$ref === 'string' ? (lookup(doc, value.$ref) ?? {}) : value;
}

/** The schema name a reference points to, as a reader of the API reference would look it up. */
function refName(ref: string): string {
  const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
  return match ? match[1].split('/').map(decodePointerSegment).join('/') : ref;
}

const notes = {
  recursive: (name: string) => `${name}: recursive schema omitted here; see the API reference.`,
  budget: (name: string) => `${name}: nested schema omitted at the depth/size budget; see the API reference.`,
  inline: 'Nested schema omitted at the size budget; see the API reference.',
};

/** An open stand-in for a cut branch that keeps the type it had (and null, if it allowed null), described if room. */
function stub(target: Json, description: string | undefined): JsonObject {
  const resolved = isObject(target) ? target : {};
  const type = keptKeyword('type', resolved.type) ?? (isObject(resolved.properties) ? 'object' : undefined);
  const out: JsonObject = type === undefined ? {} : { type };
  if (description !== undefined) out.description = description;
  if (type !== undefined && resolved.nullable === true) makeNullable(out);
  if (typesOf(out).includes('array')) out.items = {};
  splitTypeList(out);
  return out;
}

const OVER_BUDGET = Symbol('over budget');

interface Attempt {
  schema: JsonObject;
  /** Whether a reference was cut for depth (not recursion): a deeper attempt would show more. */
  cutByDepth: boolean;
}

/**
 * Results per document, by options and the schema as written: APIs use one schema in many operations (Stripe's
 * 452 operations have 227 distinct success bodies). Each caller gets its own top level to add a description to;
 * nothing below it is changed after inlining.
 */
const results = new WeakMap<JsonObject, Map<string, JsonObject>>();

export function inlineSchema(doc: JsonObject, schema: Json, options: InlineOptions): JsonObject {
  const memo = results.get(doc) ?? new Map<string, JsonObject>();
  results.set(doc, memo);
  const key = `${options.mode} ${options.maxRefDepth} ${options.maxChars} ${options.dropAnnotations === true} ${JSON.stringify(schema)}`;
  if (!memo.has(key)) memo.set(key, inlineWithin(doc, schema, options));
  return { ...memo.get(key)! };
}

function inlineWithin(doc: JsonObject, schema: Json, options: InlineOptions): JsonObject {
  const maxDepth = options.maxRefDepth ?? 6;
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  // A root reference is always followed: a schema cut at its root says nothing.
  const first = Math.min(isObject(schema) && typeof schema.$ref === 'string' ? 1 : 0, maxDepth);
  let best: JsonObject | undefined;
  for (let depth = first; depth <= maxDepth; depth++) {
    const attempt = inlineAt(doc, schema, options, depth, maxChars, 'abandon');
    if (!attempt) break;
    best = attempt.schema;
    if (!attempt.cutByDepth) break;
  }
  return best ?? cutToBudget(doc, schema, options, first, maxChars);
}

const WIDE_NOTE = 'Some nested schemas are omitted at the size budget; see the API reference.';

/**
 * For a schema written out wider than the budget even at the shallowest depth: every property is kept, and the
 * ones past a cut-off become stubs (described if that fits, bare if not). The cut-off is searched for, since
 * each stub left behind costs room too. Only a schema with more properties than even bare stubs fit in stays
 * over the budget, at its shallowest.
 */
function cutToBudget(
  doc: JsonObject,
  schema: Json,
  options: InlineOptions,
  depth: number,
  maxChars: number,
): JsonObject {
  const room = maxChars - WIDE_NOTE.length - 4;
  const pass = (budget: number, overrun: 'stub' | 'bare-stub') =>
    inlineAt(doc, schema, options, depth, budget, overrun)!.schema;
  const fits = (candidate: JsonObject) => JSON.stringify(candidate).length <= room;
  let overrun: 'stub' | 'bare-stub' = 'stub';
  let result = pass(0, overrun);
  if (!fits(result)) result = pass(0, (overrun = 'bare-stub'));
  for (let [low, high] = [0, room]; fits(result) && high - low > room / 64; ) {
    const middle = Math.floor((low + high) / 2);
    const candidate = pass(middle, overrun);
    if (fits(candidate)) [low, result] = [middle, candidate];
    else high = middle;
  }
  result.description = typeof result.description === 'string' ? `${result.description}\n\n${WIDE_NOTE}` : WIDE_NOTE;
  return result;
}

/**
 * One pass at a fixed depth. Past the budget it is abandoned (`abandon`: returns undefined) or goes on with a
 * stub for every node still to visit (`stub`, or `bare-stub` for stubs without their note).
 */
function inlineAt(
  doc: JsonObject,
  schema: Json,
  options: InlineOptions,
  depth: number,
  maxChars: number,
  overrun: 'abandon' | 'stub' | 'bare-stub',
): Attempt | undefined {
  const { mode, dropAnnotations } = options;
  const stack: string[] = [];
  let size = 0;
  let cutByDepth = false;

  const spend = (chars: number): void => {
    size += chars;
    if (size > maxChars && overrun === 'abandon') throw OVER_BUDGET;
  };
  const cut = (target: Json, description: string): JsonObject => {
    const out = stub(target, overrun === 'bare-stub' ? undefined : description);
    spend(JSON.stringify(out).length + 1);
    return out;
  };

  const visit = (node: Json): Json => {
    if (node === true) return {};
    if (node === false) return { not: {} };
    if (!isObject(node)) return {};
    if (size > maxChars)
      return cut(safeDeref(doc, node), typeof node.$ref === 'string' ? notes.budget(refName(node.$ref)) : notes.inline);
    if (typeof node.$ref === 'string') return visitRef(node, node.$ref);
    return convert(node);
  };

  const visitRef = (node: JsonObject, ref: string): Json => {
    const target = lookup(doc, ref);
    if (target === undefined) return {};
    const recursive = stack.includes(ref);
    if (recursive || stack.length >= depth) {
      cutByDepth ||= !recursive;
      const out = cut(target, recursive ? notes.recursive(refName(ref)) : notes.budget(refName(ref)));
      // A description written beside the reference still says what the field is; the note follows it.
      if (!dropAnnotations && typeof node.description === 'string' && typeof out.description === 'string')
        out.description = `${node.description}\n\n${out.description}`;
      return out;
    }
    stack.push(ref);
    const siblings = Object.fromEntries(Object.entries(node).filter(([k]) => k !== '$ref'));
    const inner = visit(target);
    stack.pop();
    // 3.1 allows keywords beside $ref (usually a description); they refine the target.
    return isObject(inner) && Object.keys(siblings).length ? { ...inner, ...(visit(siblings) as JsonObject) } : inner;
  };

  const subschemaMap = (key: string, value: JsonObject): JsonObject => {
    const dropped = mode === 'input' ? 'readOnly' : 'writeOnly';
    const props: JsonObject = {};
    for (const [name, sub] of Object.entries(value)) {
      const resolved = safeDeref(doc, sub);
      if (key === 'properties' && isObject(resolved) && resolved[dropped] === true) continue;
      spend(name.length + 4);
      Object.defineProperty(props, name, { value: visit(sub), enumerable: true, writable: true, configurable: true });
    }
    return props;
  };

  const convert = (node: JsonObject): JsonObject => {
    spend(2);
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (SCHEMA_MAPS.has(key)) {
        if (isObject(value)) out[key] = subschemaMap(key, value);
      } else if (SCHEMA_LISTS.has(key)) {
        if (Array.isArray(value) && value.length) out[key] = value.map(visit);
      } else if (SCHEMA_VALUES.has(key)) {
        out[key] = visit(value);
      } else if (key === 'items') {
        // Draft 4 tuples (`items: [a, b]`, `additionalItems`) become 2020-12 `prefixItems` and `items`.
        if (Array.isArray(value)) out.prefixItems = value.map(visit);
        else out.items = visit(value);
      } else if (key === 'additionalItems') {
        if (Array.isArray(node.items)) out.items = visit(value);
      } else if (key === 'additionalProperties') {
        // `false` stays literal: strict clients look for exactly `additionalProperties: false`. `true` (or `{}`) is
        // the default, and written out it is an untyped schema the Inspector's --strict check flags: it is left out.
        if (value === false) out.additionalProperties = false;
        else if (value !== true && !(isObject(value) && Object.keys(value).length === 0))
          out.additionalProperties = visit(value);
      } else if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
        const bound = node[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'];
        if (typeof value === 'number') out[key] = value;
        else if (value === true && typeof bound === 'number') out[key] = bound;
      } else if (!dropAnnotations || !ANNOTATIONS.has(key)) {
        const kept = keptKeyword(key, value);
        if (kept !== undefined) out[key] = kept;
        if (kept !== undefined) spend(JSON.stringify(kept).length);
      }
      if (out[key] !== undefined) spend(key.length + 4);
    }
    finish(node, out);
    return out;
  };

  try {
    const result = visit(schema);
    const out = isObject(result) ? result : {};
    if (overrun === 'abandon' && JSON.stringify(out).length > maxChars) return undefined;
    return { schema: out, cutByDepth };
  } catch (error) {
    if (error === OVER_BUDGET) return undefined;
    throw error;
  }
}

/** The keyword fix-ups that look at a converted node as a whole. */
function finish(node: JsonObject, out: JsonObject): void {
  if (node.exclusiveMinimum === true) delete out.minimum;
  if (node.exclusiveMaximum === true) delete out.maximum;
  if (node.nullable === true) makeNullable(out);
  if (out.default !== undefined && !fitsType(out.default, out.type)) delete out.default;
  if (typesOf(out).includes('array') && out.items === undefined) out.items = {};
  if (Array.isArray(out.required) && isObject(node.properties) && isObject(out.properties)) {
    // Only the properties this mode dropped (readOnly in input, writeOnly in output) stop being required.
    const [declared, kept] = [node.properties, out.properties];
    out.required = out.required.filter(
      (name) => typeof name === 'string' && (Object.hasOwn(kept, name) || !Object.hasOwn(declared, name)),
    );
    if (!out.required.length) delete out.required;
  }
  splitTypeList(out);
}
