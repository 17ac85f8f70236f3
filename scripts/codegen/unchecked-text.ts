// Finds the places of a request body the service's text check leaves alone: a schema marked
// `x-unchecked-text: <why>` is one, with everything inside it. The check (src/http/storable-text.ts) refuses
// U+0000 and lone surrogates everywhere else; an operation that reports such text itself (a lead import
// reports the row invalid and imports the others) declares it here, in the contract, once.
import { deref, isObject, type Json, type JsonObject } from './load.ts';

export const UNCHECKED_TEXT = 'x-unchecked-text';

function segment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function marked(node: Json): boolean {
  return isObject(node) && typeof node[UNCHECKED_TEXT] === 'string' && node[UNCHECKED_TEXT].trim() !== '';
}

/**
 * The marked places below one schema, as pointers relative to it. Each schema is walked once (large contracts
 * reuse schemas in many places); a schema met again inside itself adds nothing, so a mark inside a recursive
 * schema is found at its first depth only.
 */
class Finder {
  private readonly found = new Map<JsonObject, string[]>();
  private readonly walking = new Set<JsonObject>();

  constructor(private readonly doc: JsonObject) {}

  below(node: Json): string[] {
    if (marked(node)) return [''];
    const schema = deref(this.doc, node);
    if (!isObject(schema) || this.walking.has(schema)) return [];
    if (marked(schema)) return [''];
    let out = this.found.get(schema);
    if (out) return out;
    this.walking.add(schema);
    out = [];
    for (const group of ['allOf', 'anyOf', 'oneOf'] as const) {
      const members = schema[group];
      if (Array.isArray(members)) for (const member of members) out.push(...this.below(member));
    }
    if (isObject(schema.properties)) {
      for (const [key, sub] of Object.entries(schema.properties))
        out.push(...this.below(sub).map((p) => `/${segment(key)}${p}`));
    }
    for (const key of ['items', 'additionalProperties'] as const) {
      if (isObject(schema[key])) out.push(...this.below(schema[key]).map((p) => `/*${p}`));
    }
    this.walking.delete(schema);
    this.found.set(schema, out);
    return out;
  }
}

/** JSON pointers (`*` for any item or member) of the marked places in a body schema, in document order. */
export function uncheckedTextPointers(doc: JsonObject, schema: Json): string[] {
  return [...new Set(new Finder(doc).below(schema))];
}
