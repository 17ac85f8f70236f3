// Emits src/generated/types.ts with openapi-typescript, from a deep copy of the document prepared for it:
// type-only reference cycles cut (see type-cycles.ts), and `%` in path keys and operationIds hidden behind a
// placeholder, because its bundler decodes JSON pointers made from them and throws "URI malformed".
import openapiTS, { astToString } from 'openapi-typescript';
import { isObject, type Json, type JsonObject } from './load.ts';
import { METHODS } from './model.ts';
import { typesDocument } from './type-cycles.ts';

function placeholderFor(doc: JsonObject): string {
  const text = JSON.stringify(doc);
  let token = 'PERCENT_SIGN';
  while (text.includes(token)) token += '_';
  return token;
}

function percentOperations(item: Json): string[] {
  if (!isObject(item)) return [];
  return METHODS.filter((m) => {
    const op = item[m];
    return isObject(op) && typeof op.operationId === 'string' && op.operationId.includes('%');
  });
}

function hidePercent(paths: JsonObject, token: string): JsonObject {
  const out: JsonObject = {};
  for (const [path, item] of Object.entries(paths)) {
    let copy = item;
    for (const method of percentOperations(item)) {
      const op = (copy as JsonObject)[method] as JsonObject;
      copy = {
        ...(copy as JsonObject),
        [method]: { ...op, operationId: String(op.operationId).replaceAll('%', token) },
      };
    }
    out[path.replaceAll('%', token)] = copy;
  }
  return out;
}

export async function emitTypes(doc: JsonObject, header: string): Promise<string> {
  // A deep copy: openapi-typescript writes into the schemas it reads (discriminator enums into oneOf members),
  // which would leak into the routes and tools emitted from the same document.
  const prepared = typesDocument(structuredClone(doc));
  const paths = isObject(prepared.paths) ? prepared.paths : {};
  const needsHiding = Object.entries(paths).some(
    ([path, item]) => path.includes('%') || percentOperations(item).length,
  );
  const token = needsHiding ? placeholderFor(prepared) : undefined;
  const input = token ? { ...prepared, paths: hidePercent(paths, token) } : prepared;
  const ast = await openapiTS(input as never, { silent: true, alphabetize: false });
  const text = astToString(ast);
  return `${header}${token ? text.replaceAll(token, '%') : text}`;
}
