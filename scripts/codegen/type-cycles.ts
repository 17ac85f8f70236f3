// Prepares the document for openapi-typescript. It writes each component schema as an indexed access type
// (`components["schemas"]["Tree"]`), and TypeScript defers such a self-reference only inside an object type:
// a cycle through array items or allOf/oneOf/anyOf alone (`Tree: Tree[]`, `A: B | string` with `B: A[]`) is
// a compile error (TS2502). Those references are cut to `{}` (unknown) in a copy; the rest stays as written.
import { decodePointerSegment, isObject, type Json, type JsonObject } from './load.ts';

const COMPONENT = /^#\/components\/schemas\/([^/]+)(\/.*)?$/;
/** Keywords whose sub-schemas openapi-typescript writes in place, outside any object type. */
const TRANSPARENT_LISTS = new Set(['allOf', 'oneOf', 'anyOf', 'prefixItems']);
const TRANSPARENT_VALUES = new Set(['items']);

interface Edge {
  to: string;
  path: (string | number)[];
}

/** References a schema's type is built from directly: transparent positions, and any pointer into a component. */
function edgesOf(schema: Json): Edge[] {
  const edges: Edge[] = [];
  const walk = (node: Json, path: (string | number)[], transparent: boolean): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, [...path, i], false));
    if (!isObject(node)) return;
    const match = typeof node.$ref === 'string' ? COMPONENT.exec(node.$ref) : null;
    if (match && (transparent || match[2])) edges.push({ to: decodePointerSegment(match[1]), path });
    for (const [key, child] of Object.entries(node)) {
      if (key === 'enum' || key === 'const' || key === 'default' || key === 'example' || key === 'examples') continue;
      if (TRANSPARENT_LISTS.has(key) && Array.isArray(child))
        child.forEach((item, i) => walk(item, [...path, key, i], transparent));
      else walk(child, [...path, key], transparent && TRANSPARENT_VALUES.has(key));
    }
  };
  walk(schema, [], true);
  return edges;
}

/** Tarjan's strongly connected components; returns the component index of every node. */
function components(nodes: string[], edges: Map<string, Edge[]>): Map<string, number> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const scc = new Map<string, number>();
  const stack: string[] = [];
  let counter = 0;
  let sccCount = 0;
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    for (const { to } of edges.get(v) ?? []) {
      if (!edges.has(to)) continue;
      if (!index.has(to)) {
        connect(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (!scc.has(to)) low.set(v, Math.min(low.get(v)!, index.get(to)!));
    }
    if (low.get(v) === index.get(v)) {
      for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) scc.set(w, sccCount);
      sccCount++;
    }
  };
  for (const v of nodes) if (!index.has(v)) connect(v);
  return scc;
}

function cut(schema: Json, path: (string | number)[]): Json {
  if (!path.length) return {};
  const [head, ...rest] = path;
  if (Array.isArray(schema)) return schema.map((item, i) => (i === head ? cut(item, rest) : item));
  if (!isObject(schema)) return schema;
  return { ...schema, [head]: cut(schema[head as string], rest) };
}

export function typesDocument(doc: JsonObject): JsonObject {
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : undefined;
  if (!schemas) return doc;
  const edges = new Map(Object.entries(schemas).map(([name, schema]) => [name, edgesOf(schema)]));
  const scc = components(Object.keys(schemas), edges);
  const patched: JsonObject = {};
  for (const [name, list] of edges) {
    const cyclic = list.filter((e) => scc.has(e.to) && scc.get(e.to) === scc.get(name));
    if (cyclic.length) patched[name] = cyclic.reduce((schema, e) => cut(schema, e.path), schemas[name]);
  }
  if (!Object.keys(patched).length) return doc;
  return { ...doc, components: { ...(doc.components as JsonObject), schemas: { ...schemas, ...patched } } };
}
