// Makes self-contained JSON Schemas for MCP tools: references inlined, recursion cut at a bounded depth,
// OpenAPI 3.0 dialect converted to JSON Schema 2020-12, keywords strict clients reject removed.
import { deref, isObject, pointerGet, type Json, type JsonObject } from './load.ts';

export interface InlineOptions {
  /** `input` drops readOnly properties, `output` drops writeOnly ones. */
  mode: 'input' | 'output';
  /** How many references may be open at once before the rest is cut. */
  maxRefDepth?: number;
  /** Node budget per schema, so shared sub-schemas cannot multiply without bound. */
  maxNodes?: number;
}

const KNOWN_FORMATS = new Set([
  'date', 'time', 'date-time', 'duration', 'uri', 'uri-reference', 'uri-template', 'url', 'email', 'hostname',
  'ipv4', 'ipv6', 'regex', 'uuid', 'json-pointer', 'relative-json-pointer', 'byte', 'int32', 'int64', 'float',
  'double', 'password', 'binary', 'iso-time', 'iso-date-time',
]);
const DROPPED = new Set(['nullable', 'discriminator', 'xml', 'externalDocs', 'example', 'examples', '$schema', '$id', '$anchor', '$defs', 'definitions', 'readOnly', 'writeOnly', 'deprecated', '$comment', 'contentMediaType', 'contentEncoding', 'unevaluatedProperties', 'unevaluatedItems', '$dynamicRef', '$dynamicAnchor', 'title']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_VALUES = new Set(['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'additionalItems']);

export function patternCompiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** A short stand-in for a cut branch that still says what type it had. */
function stub(doc: JsonObject, target: Json): JsonObject {
  const resolved = isObject(target) ? target : {};
  const type = typeof resolved.type === 'string' ? resolved.type : isObject(resolved.properties) ? 'object' : undefined;
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
    if (--budget < 0) return stub(doc, node);
    if (typeof node.$ref === 'string') {
      const ref = node.$ref;
      let target: Json;
      try {
        target = ref.startsWith('#') ? pointerGet(doc, ref.slice(1)) : {};
      } catch {
        return {};
      }
      if (stack.includes(ref) || stack.length >= maxRefDepth) return stub(doc, deref(doc, target));
      stack.push(ref);
      const siblings = Object.fromEntries(Object.entries(node).filter(([k]) => k !== '$ref'));
      const inner = visit(target);
      stack.pop();
      // 3.1 allows keywords beside $ref (usually a description); they refine the target.
      return isObject(inner) && Object.keys(siblings).length ? { ...inner, ...(visit(siblings) as JsonObject) } : inner;
    }
    return convert(node);
  };

  const convert = (node: JsonObject): JsonObject => {
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (DROPPED.has(key) || key.startsWith('x-')) continue;
      if (SCHEMA_MAPS.has(key) && isObject(value)) {
        const props: JsonObject = {};
        for (const [name, sub] of Object.entries(value)) {
          const resolved = deref(doc, sub);
          if (key === 'properties' && isObject(resolved) && resolved[options.mode === 'input' ? 'readOnly' : 'writeOnly'] === true) continue;
          props[name] = visit(sub);
        }
        out[key] = props;
      } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
        out[key] = value.map(visit);
      } else if (SCHEMA_VALUES.has(key)) {
        out[key] = Array.isArray(value) ? { anyOf: value.map(visit) } : visit(value);
      } else if (key === 'format') {
        if (typeof value === 'string' && KNOWN_FORMATS.has(value)) out.format = value;
      } else if (key === 'pattern') {
        if (typeof value === 'string' && patternCompiles(value)) out.pattern = value;
      } else if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
        const bound = key === 'exclusiveMinimum' ? 'minimum' : 'maximum';
        if (typeof value === 'number') out[key] = value;
        else if (value === true && typeof node[bound] === 'number') out[key] = node[bound];
      } else if (key === 'required') {
        if (Array.isArray(value) && value.length) out.required = value.filter((v) => typeof v === 'string');
      } else if (key === 'type') {
        out.type = Array.isArray(value) && value.length === 1 ? value[0] : value;
      } else {
        out[key] = value;
      }
    }
    if (node.exclusiveMinimum === true) delete out.minimum;
    if (node.exclusiveMaximum === true) delete out.maximum;
    if (node.nullable === true) makeNullable(out);
    if ((out.type === 'array' || (Array.isArray(out.type) && out.type.includes('array'))) && out.items === undefined) out.items = {};
    if (Array.isArray(out.required) && isObject(out.properties)) {
      const props = out.properties;
      out.required = out.required.filter((name) => typeof name === 'string' && name in props);
      if (!out.required.length) delete out.required;
    }
    return out;
  };

  const result = visit(schema);
  return isObject(result) ? result : {};
}

function makeNullable(out: JsonObject): void {
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  else if (Array.isArray(out.type)) {
    if (!out.type.includes('null')) out.type = [...out.type, 'null'];
  } else if (Array.isArray(out.enum)) {
    if (!out.enum.includes(null)) out.enum = [...out.enum, null];
  } else {
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
    const merged: JsonObject = { type: 'object', properties: {} };
    const required = new Set<string>();
    for (const part of schema.allOf) {
      const obj = isObject(part) ? asObjectSchema(part) : undefined;
      if (!obj) return undefined;
      Object.assign(merged.properties as JsonObject, obj.properties ?? {});
      for (const r of Array.isArray(obj.required) ? obj.required : []) required.add(String(r));
      if (typeof obj.description === 'string' && merged.description === undefined) merged.description = obj.description;
    }
    if (typeof schema.description === 'string') merged.description = schema.description;
    if (required.size) merged.required = [...required];
    return merged;
  }
  if (schema.oneOf || schema.anyOf || schema.not) return undefined;
  const isObj = schema.type === 'object' || (schema.type === undefined && isObject(schema.properties));
  return isObj ? { ...schema, type: 'object' } : undefined;
}
