// Makes the inlined tool schemas as short as their readers need, since every tools/list carries them to the model
// (the budget is in test/mcp/generated-tools.test.ts). Each rewrite is either exact (the schema accepts the same
// values) or, in an output schema only, a loosening: the service produces the output, so a client checking
// structuredContent against a looser schema never refuses what it accepted before.
//
// Output schemas (read by the model and by JSON Schema validators such as the SDK client's ajv):
// - a nullable pair `anyOf`/`oneOf` [X, {type: null}] becomes `type: [X, "null"]` (exact), or its values with null
//   when they are listed (exact). Input schemas keep the pair: clients map them onto single-type function
//   declarations, which is what the MCP Inspector's --strict `type-union` warning is about.
// - `required` goes: it was a fifth of the service's output schemas, which list nearly every field as required;
//   the fields are still named with their types (null included), and the model reads the answer itself.
// - value bounds (`pattern`, lengths, counts, numeric bounds, closed objects) go: they constrain what the
//   service writes, not what a reader needs. A `oneOf` becomes `anyOf` first, since loosened branches may overlap.
// - nothing under `not` or `if` is loosened: there a looser schema would refuse more or pick another branch.
//
// Input schemas (read by the model, and checked by the stdio launcher before it sends a request; the REST route
// checks every argument again, and the in-process server leaves all checking to it):
// - an identifier (`id`, `…_id`, the items of `…_ids`) loses its `pattern`: the model copies ids from answers,
//   never composes one, and a malformed one gets the route's 400 naming the argument, as over HTTP.
// - a header argument (an idempotency key, an ETag) keeps its type, values and description, not its pattern or
//   lengths: the description says what to send.
// - a paging `cursor` is copied from an answer like an identifier: it loses its pattern and lengths.
// - the arguments many tools share (`idempotency_key`, `limit`, `cursor`) lose their description: the server's
//   instructions (src/mcp/guide.ts SHARED_ARGUMENTS) say once what they mean, instead of thirty times.
// Both: an `allOf` of plain object parts becomes one object (exact: disjoint properties, no closed part).
import { isObject, type Json, type JsonObject } from './load.ts';
import { fitsType } from './schema-keywords.ts';

/** Output keywords that only bound a value the service writes. */
const BOUNDS = new Set([
  'pattern',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
  'required',
]);
/** What a header argument keeps. */
const HEADER_KEYWORDS = new Set(['type', 'enum', 'const', 'format', 'default', 'description', 'anyOf']);
const IDENTIFIER = /^(.+_)?id$/;
/** Copied from answers, never composed: no pattern or lengths. */
const COPIED = new Set(['cursor']);
const LENGTHS = new Set(['pattern', 'minLength', 'maxLength']);
/** Explained once in the server's instructions (src/mcp/guide.ts), so no tool repeats it. */
export const EXPLAINED_ONCE = new Set(['idempotency_key', 'limit', 'cursor']);
const IDENTIFIERS = /_ids$/;
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_VALUES = new Set(['items', 'additionalProperties', 'contains', 'propertyNames', 'then', 'else']);
/** Subschemas where loosening is not loosening: kept exactly as written. */
const HELD = new Set(['not', 'if']);
/** What an `allOf` part may hold and still merge into one object with the others. */
const PLAIN_PART = new Set(['type', 'properties', 'required']);

type Side = 'input' | 'output';

/** `headers`: the top-level properties sent as HTTP headers. */
export function compactInputSchema(schema: JsonObject, headers: ReadonlySet<string> = new Set()): JsonObject {
  const out = compact(schema, 'input');
  if (!isObject(out.properties)) return out;
  for (const name of headers) {
    const sub = out.properties[name];
    if (isObject(sub))
      out.properties[name] = Object.fromEntries(Object.entries(sub).filter(([key]) => HEADER_KEYWORDS.has(key)));
  }
  for (const [name, sub] of Object.entries(out.properties)) {
    if (!isObject(sub)) continue;
    const drop = (key: string) =>
      (EXPLAINED_ONCE.has(name) && key === 'description') || (COPIED.has(name) && LENGTHS.has(key));
    if (Object.keys(sub).some(drop))
      out.properties[name] = Object.fromEntries(Object.entries(sub).filter(([key]) => !drop(key)));
  }
  return out;
}

export function compactOutputSchema(schema: JsonObject): JsonObject {
  return compact(schema, 'output');
}

/** A new schema, children first; the inliner's memoised nodes are shared between tools and never changed. */
function compact(node: JsonObject, side: Side): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (HELD.has(key)) out[key] = value;
    else if (SCHEMA_MAPS.has(key) && isObject(value)) out[key] = compactMap(key, value, side);
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map((s) => child(s, side));
    else if (SCHEMA_VALUES.has(key)) out[key] = child(value, side);
    else out[key] = value;
  }
  let result = mergeAllOf(out);
  if (side === 'output') result = joinNullable(loosen(result));
  return result;
}

function child(value: Json, side: Side): Json {
  return isObject(value) ? compact(value, side) : value;
}

function compactMap(key: string, map: JsonObject, side: Side): JsonObject {
  const out: JsonObject = {};
  for (const [name, sub] of Object.entries(map)) {
    let value = child(sub, side);
    if (side === 'input' && key === 'properties' && isObject(value)) {
      if (IDENTIFIER.test(name)) value = withoutPattern(value);
      else if (IDENTIFIERS.test(name) && isObject(value.items))
        value = { ...value, items: withoutPattern(value.items) };
    }
    // defineProperty: a property named `__proto__` must stay a property.
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function withoutPattern(schema: JsonObject): JsonObject {
  const { pattern: _pattern, ...rest } = schema;
  return rest;
}

function loosen(node: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (BOUNDS.has(key) || (key === 'additionalProperties' && value === false)) continue;
    out[key === 'oneOf' && node.anyOf === undefined ? 'anyOf' : key] = value;
  }
  // Beside an `anyOf` of its own, a `oneOf` joins the `allOf` as another `anyOf`.
  if (out.oneOf !== undefined) {
    out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), { anyOf: out.oneOf }];
    delete out.oneOf;
  }
  return out;
}

const isNullType = (branch: Json) => isObject(branch) && branch.type === 'null' && Object.keys(branch).length === 1;

/** `anyOf: [X, {type: null}]` as one schema, when X has one type and no keyword the node also has. */
function joinNullable(node: JsonObject): JsonObject {
  const pair = node.anyOf;
  if (!Array.isArray(pair) || pair.length !== 2 || !pair.some(isNullType)) return node;
  const other = pair.find((branch) => !isNullType(branch));
  if (!isObject(other) || typeof other.type !== 'string' || other.type === 'null') return node;
  const rest = Object.fromEntries(Object.entries(node).filter(([key]) => key !== 'anyOf'));
  const values = nullableValues(rest.enum, other);
  if (values) return { ...Object.fromEntries(Object.entries(rest).filter(([key]) => key !== 'enum')), enum: values };
  if (Object.keys(other).some((key) => Object.hasOwn(rest, key))) return node;
  return { ...rest, ...other, type: [other.type, 'null'] };
}

/**
 * The values a nullable pair allows when they are listed (beside it, or in its typed branch), null included,
 * and the branch says nothing but its type and values: then the list alone says all.
 */
function nullableValues(beside: Json | undefined, branch: JsonObject): Json[] | undefined {
  if (Object.keys(branch).some((key) => key !== 'type' && key !== 'enum')) return undefined;
  const listed = Array.isArray(beside) ? beside : Array.isArray(branch.enum) ? [...branch.enum, null] : undefined;
  if (!listed || (Array.isArray(beside) && branch.enum !== undefined)) return undefined;
  if (!listed.every((value) => value === null || fitsType(value, branch.type))) return undefined;
  return [...new Set(listed)];
}

/** `allOf` of plain object parts with distinct properties, as the one object it means. */
function mergeAllOf(node: JsonObject): JsonObject {
  const parts = node.allOf;
  if (!Array.isArray(parts) || !parts.length) return node;
  const { allOf: _parts, ...rest } = node;
  if (Object.keys(rest).some((key) => key !== 'type' && key !== 'description')) return node;
  if (rest.type !== undefined && rest.type !== 'object') return node;
  const properties: JsonObject = {};
  const required = new Set<string>();
  for (const part of parts) {
    if (!isObject(part) || Object.keys(part).some((key) => !PLAIN_PART.has(key))) return node;
    if (part.type !== 'object' || !isObject(part.properties)) return node;
    for (const [name, sub] of Object.entries(part.properties)) {
      if (Object.hasOwn(properties, name)) return node;
      Object.defineProperty(properties, name, { value: sub, enumerable: true, writable: true, configurable: true });
    }
    if (Array.isArray(part.required)) for (const name of part.required) required.add(String(name));
  }
  const merged: JsonObject = { ...rest, type: 'object' };
  if (required.size) merged.required = [...required];
  merged.properties = properties;
  return merged;
}
