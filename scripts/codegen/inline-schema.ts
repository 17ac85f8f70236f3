// Makes self-contained JSON Schemas for MCP tools: references inlined, recursion cut at a bounded depth,
// OpenAPI 3.0 dialect converted to JSON Schema 2020-12, keywords strict clients reject removed.
import { deref, isObject, pointerGet, type Json, type JsonObject } from './load.ts';
import { fitsType, keptKeyword } from './schema-keywords.ts';

export interface InlineOptions {
  /** `input` drops readOnly properties, `output` drops writeOnly ones. */
  mode: 'input' | 'output';
  /** How many references may be open at once before the rest is cut. */
  maxRefDepth?: number;
  /** Node budget per schema, so shared sub-schemas cannot multiply without bound. */
  maxNodes?: number;
}

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_VALUES = new Set(['not', 'contains', 'propertyNames', 'if', 'then', 'else']);

/** Follows local references; an unresolvable one reads as an empty schema rather than failing codegen. */
function safeDeref(doc: JsonObject, value: Json): Json {
  try {
    return deref(doc, value);
  } catch {
    return {};
  }
}

/** A short stand-in for a cut branch that still says what type it had. */
function stub(target: Json): JsonObject {
  const resolved = isObject(target) ? target : {};
  const declared = typeof resolved.type === 'string' ? keptKeyword('type', resolved.type) : undefined;
  const type = typeof declared === 'string' ? declared : isObject(resolved.properties) ? 'object' : undefined;
  const out: JsonObject = { description: 'Nested structure omitted (recursive or too deep).' };
  if (type) out.type = type;
  if (type === 'array') out.items = {};
  return out;
}

export function inlineSchema(doc: JsonObject, schema: Json, options: InlineOptions): JsonObject {
  const maxRefDepth = options.maxRefDepth ?? 6;
  let budget = options.maxNodes ?? 4000;
  const stack: string[] = [];

  const visit = (node: Json): Json => {
    if (node === true) return {};
    if (node === false) return { not: {} };
    if (!isObject(node)) return {};
    if (--budget < 0) return stub(safeDeref(doc, node));
    if (typeof node.$ref === 'string') {
      const ref = node.$ref;
      let target: Json;
      try {
        target = ref.startsWith('#') ? pointerGet(doc, ref.slice(1)) : {};
      } catch {
        return {};
      }
      if (stack.includes(ref) || stack.length >= maxRefDepth) return stub(safeDeref(doc, target));
      stack.push(ref);
      const siblings = Object.fromEntries(Object.entries(node).filter(([k]) => k !== '$ref'));
      const inner = visit(target);
      stack.pop();
      // 3.1 allows keywords beside $ref (usually a description); they refine the target.
      return isObject(inner) && Object.keys(siblings).length ? { ...inner, ...(visit(siblings) as JsonObject) } : inner;
    }
    return convert(node);
  };

  const subschemaMap = (key: string, value: JsonObject): JsonObject => {
    const dropped = options.mode === 'input' ? 'readOnly' : 'writeOnly';
    const props: JsonObject = {};
    for (const [name, sub] of Object.entries(value)) {
      const resolved = safeDeref(doc, sub);
      if (key === 'properties' && isObject(resolved) && resolved[dropped] === true) continue;
      Object.defineProperty(props, name, { value: visit(sub), enumerable: true, writable: true, configurable: true });
    }
    return props;
  };

  const convert = (node: JsonObject): JsonObject => {
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
        else out.items = value === false ? false : visit(value);
      } else if (key === 'additionalItems') {
        if (Array.isArray(node.items)) out.items = value === false ? false : visit(value);
      } else if (key === 'additionalProperties') {
        // `false` stays literal: strict clients look for exactly `additionalProperties: false`.
        out.additionalProperties = value === false ? false : visit(value);
      } else if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
        const bound = node[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'];
        if (typeof value === 'number') out[key] = value;
        else if (value === true && typeof bound === 'number') out[key] = bound;
      } else {
        const kept = keptKeyword(key, value);
        if (kept !== undefined) out[key] = kept;
      }
    }
    if (node.exclusiveMinimum === true) delete out.minimum;
    if (node.exclusiveMaximum === true) delete out.maximum;
    if (node.nullable === true) makeNullable(out);
    if (out.default !== undefined && !fitsType(out.default, out.type)) delete out.default;
    if ((out.type === 'array' || (Array.isArray(out.type) && out.type.includes('array'))) && out.items === undefined) out.items = {};
    if (Array.isArray(out.required) && isObject(node.properties) && isObject(out.properties)) {
      // Only the properties this mode dropped (readOnly in input, writeOnly in output) stop being required.
      const [declared, kept] = [node.properties, out.properties];
      out.required = out.required.filter((name) => typeof name === 'string' && (Object.hasOwn(kept, name) || !Object.hasOwn(declared, name)));
      if (!out.required.length) delete out.required;
    }
    return out;
  };

  const result = visit(schema);
  return isObject(result) ? result : {};
}

function makeNullable(out: JsonObject): void {
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  else if (Array.isArray(out.type)) {
    if (!out.type.includes('null')) out.type = [...out.type, 'null'];
  } else if (!Array.isArray(out.enum)) {
    const copy = { ...out };
    for (const key of Object.keys(out)) delete out[key];
    out.anyOf = [copy, { type: 'null' }];
  }
}

/**
 * Merges a top-level `allOf` of object schemas into one object schema; returns undefined when the schema
 * is not an object at the top (so it must travel whole, as one argument).
 */
export function asObjectSchema(schema: JsonObject): JsonObject | undefined {
  if (Array.isArray(schema.allOf)) {
    // The schema's own keywords beside allOf (`{ allOf: [Base], properties: { extra }, required: [...] }`) join.
    const { allOf, ...own } = schema;
    let properties: JsonObject = {};
    const required = new Set<string>();
    let description: Json | undefined;
    for (const part of [...allOf, own]) {
      const obj = isObject(part) ? asObjectSchema(part) ?? constraintsOnly(part) : undefined;
      if (!obj) return undefined;
      properties = { ...properties, ...(isObject(obj.properties) ? obj.properties : {}) };
      for (const r of Array.isArray(obj.required) ? obj.required : []) required.add(String(r));
      description ??= typeof obj.description === 'string' ? obj.description : undefined;
    }
    const merged: JsonObject = { type: 'object', properties };
    if (typeof schema.description === 'string') description = schema.description;
    if (description !== undefined) merged.description = description;
    if (required.size) merged.required = [...required];
    return merged;
  }
  if (schema.oneOf || schema.anyOf || schema.not) return undefined;
  const isObj = schema.type === 'object' || (schema.type === undefined && isObject(schema.properties));
  return isObj ? { ...schema, type: 'object' } : undefined;
}

/** An allOf part that only adds `required` or a description to the others (no type, no sub-schemas). */
function constraintsOnly(part: JsonObject): JsonObject | undefined {
  return Object.keys(part).every((k) => k === 'required' || k === 'description') ? part : undefined;
}
