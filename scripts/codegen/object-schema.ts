// Reads an inlined schema as the object a tool's arguments or structured result must be: a top-level `allOf`
// of object schemas merged into one, anything else that is not an object left out.
import { isObject, type Json, type JsonObject } from './load.ts';

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
      const obj = isObject(part) ? (asObjectSchema(part) ?? constraintsOnly(part)) : undefined;
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
