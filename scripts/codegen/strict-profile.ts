// The strict-client profile every tool schema must meet: no $ref, no top-level oneOf/anyOf/allOf,
// a top-level object, and `items` on every array.
import { isObject, type Json } from './load.ts';

export function strictProfileViolations(schema: Json, where: string): string[] {
  const problems: string[] = [];
  if (!isObject(schema)) return [`${where}: schema is not an object`];
  if (schema.type !== 'object') problems.push(`${where}: top-level type must be "object"`);
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    if (key in schema) problems.push(`${where}: top-level ${key} is not allowed`);
  }
  const walk = (node: Json, path: string): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${path}/${i}`));
    if (!isObject(node)) return;
    if ('$ref' in node) problems.push(`${where}${path}: $ref is not allowed`);
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.includes('array') && node.items === undefined && node.prefixItems === undefined) {
      problems.push(`${where}${path}: array without items`);
    }
    for (const [key, child] of Object.entries(node)) {
      // enum/const/default values are data, not schemas; property maps hold schemas under any name.
      if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
      if ((key === 'properties' || key === 'patternProperties') && isObject(child)) {
        for (const [name, sub] of Object.entries(child)) walk(sub, `${path}/${key}/${name}`);
      } else walk(child, `${path}/${key}`);
    }
  };
  walk(schema, '');
  return problems;
}
