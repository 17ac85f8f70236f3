// Writes a type list (`type: ["string", "null"]`, also what 3.0 `nullable` becomes) as `anyOf` branches of one
// type each, with each type's own keywords moved into its branch. A list is legal JSON Schema, but clients
// that map tool schemas onto a single-type dialect reject it (the MCP Inspector's --strict portability check
// warns on it), while the branch form means the same to every validator.
import type { JsonObject } from './load.ts';

const FAMILIES: Record<string, string[]> = {
  array: [
    'items',
    'prefixItems',
    'contains',
    'minContains',
    'maxContains',
    'minItems',
    'maxItems',
    'uniqueItems',
    'unevaluatedItems',
  ],
  object: [
    'properties',
    'patternProperties',
    'additionalProperties',
    'unevaluatedProperties',
    'required',
    'dependentRequired',
    'dependentSchemas',
    'propertyNames',
    'minProperties',
    'maxProperties',
  ],
  string: ['minLength', 'maxLength', 'pattern'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
};
FAMILIES.integer = FAMILIES.number;

/** The type names of a schema, whether `type` is one name or a list. */
export function typesOf(node: JsonObject): string[] {
  return Array.isArray(node.type)
    ? node.type.filter((t): t is string => typeof t === 'string')
    : typeof node.type === 'string'
      ? [node.type]
      : [];
}

function branchFor(type: string, node: JsonObject, taken: Set<string>): JsonObject {
  const branch: JsonObject = { type };
  for (const key of FAMILIES[type] ?? []) {
    if (node[key] === undefined) continue;
    branch[key] = node[key];
    taken.add(key);
  }
  return branch;
}

/** Rewrites `node` in place when its `type` is a list; a single type is left as it is. */
export function splitTypeList(node: JsonObject): void {
  if (!Array.isArray(node.type)) return;
  const types = typesOf(node);
  if (types.length === 1) {
    node.type = types[0];
    return;
  }
  const taken = new Set<string>();
  const branches = types.map((t) => branchFor(t, node, taken));
  if (typeof node.format === 'string') {
    // A format names a string form (date-time) or a number width (int64): it goes where it applies.
    const target =
      branches.find((b) => b.type === 'string') ?? branches.find((b) => b.type === 'integer' || b.type === 'number');
    if (target) {
      target.format = node.format;
      taken.add('format');
    }
  }
  delete node.type;
  for (const key of taken) delete node[key];
  if (node.anyOf === undefined) node.anyOf = branches;
  else node.allOf = [...(Array.isArray(node.allOf) ? node.allOf : []), { anyOf: branches }];
}

/** Makes a converted schema accept null too (OpenAPI 3.0 `nullable: true`). */
export function makeNullable(out: JsonObject): void {
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  const types = typesOf(out);
  if (types.length) {
    if (!types.includes('null')) out.type = [...types, 'null'];
  } else if (!Array.isArray(out.enum)) {
    const copy = { ...out };
    for (const key of Object.keys(out)) delete out[key];
    out.anyOf = [copy, { type: 'null' }];
  }
}
