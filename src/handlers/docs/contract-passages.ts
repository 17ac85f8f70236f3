// The contract as passages: every operation becomes one passage naming its tool, its arguments and answers.
import { toolsMentioned, type DocsPassage } from './docs-passage.ts';

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'options', 'head', 'trace'];
const STATUS_TITLES: Record<string, string> = {
  '400': 'Bad Request',
  '401': 'Unauthorized',
  '403': 'Forbidden',
  '404': 'Not Found',
  '405': 'Method Not Allowed',
  '409': 'Conflict',
  '413': 'Content Too Large',
  '415': 'Unsupported Media Type',
  '422': 'Unprocessable Content',
  '429': 'Too Many Requests',
  '500': 'Internal Server Error',
  '502': 'Bad Gateway',
  '503': 'Service Unavailable',
};

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows local `$ref`s (siblings of the reference win, as in OpenAPI 3.1). */
function resolve(doc: Json, node: unknown, depth = 0): Json {
  if (!isObject(node)) return {};
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/') || depth > 20) return node;
  const target = ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, key) => (isObject(at) ? at[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), doc);
  const { $ref: _ref, ...siblings } = node;
  return { ...resolve(doc, target, depth + 1), ...siblings };
}

const typeOf = (s: Json) =>
  [s.type]
    .flat()
    .filter((t) => typeof t === 'string' && t !== 'null')
    .join(' or ');

/** A schema in a few words: `integer, 1–50, default 1`, `one of gmail`, `array of string`. */
function schemaWords(doc: Json, raw: unknown): string {
  const s = resolve(doc, raw);
  const words: string[] = [];
  if (Array.isArray(s.enum)) words.push(`one of ${s.enum.join(', ')}`);
  else if (typeOf(s) === 'array') words.push(`array of ${typeOf(resolve(doc, s.items)) || 'values'}`);
  else if (typeOf(s)) words.push(typeOf(s));
  if (s.minimum !== undefined || s.maximum !== undefined) words.push(`${s.minimum ?? ''}–${s.maximum ?? ''}`);
  if (s.default !== undefined) words.push(`default ${JSON.stringify(s.default)}`);
  return words.join(', ');
}

function bodyProperties(doc: Json, op: Json): Array<{ name: string; required: boolean; schema: Json }> {
  const content = resolve(doc, op.requestBody).content;
  const media = isObject(content) ? (content['application/json'] ?? Object.values(content)[0]) : undefined;
  const schema = resolve(doc, isObject(media) ? media.schema : undefined);
  const parts = Array.isArray(schema.allOf) ? schema.allOf.map((p) => resolve(doc, p)) : [schema];
  return parts.flatMap((part) => {
    const required = new Set(Array.isArray(part.required) ? part.required : []);
    return Object.entries(isObject(part.properties) ? part.properties : {}).map(([name, prop]) => ({
      name,
      required: required.has(name),
      schema: resolve(doc, prop),
    }));
  });
}

function argumentLines(doc: Json, shared: unknown[], op: Json): string[] {
  const params = new Map<string, Json>();
  for (const p of [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])].map((x) => resolve(doc, x)))
    params.set(`${p.in}:${p.name}`, p);
  const lines = [...params.values()].map((p) => {
    const name = String(p.name);
    const asArgument = p.in === 'header' ? `; tool argument \`${name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}\`` : '';
    const about = [p.in, p.required ? 'required' : 'optional', schemaWords(doc, p.schema)].filter(Boolean).join(', ');
    return `- \`${name}\` (${about}${asArgument})${p.description ? `: ${p.description}` : ''}`;
  });
  for (const prop of bodyProperties(doc, op)) {
    const about = ['body', prop.required ? 'required' : 'optional', schemaWords(doc, prop.schema)]
      .filter(Boolean)
      .join(', ');
    lines.push(
      `- \`${prop.name}\` (${about})${typeof prop.schema.description === 'string' ? `: ${prop.schema.description}` : ''}`,
    );
  }
  return lines;
}

function responseLines(doc: Json, op: Json): { success: string | null; errors: string[] } {
  const responses = Object.entries(isObject(op.responses) ? op.responses : {}).sort(([a], [b]) => a.localeCompare(b));
  const describe = ([status, r]: [string, unknown]) =>
    `${status}${STATUS_TITLES[status] ? ` ${STATUS_TITLES[status]}` : ''}: ${resolve(doc, r).description ?? ''}`.trim();
  const success = responses.find(([s]) => /^[23]/.test(s));
  return {
    success: success ? describe(success) : null,
    errors: responses.filter(([s]) => /^[45]/.test(s)).map((r) => `- ${describe(r)}`),
  };
}

function scopeLine(doc: Json, op: Json): string {
  const security = (op.security ?? doc.security) as Array<Record<string, string[]>> | undefined;
  if (Array.isArray(security) && security.length === 0) return 'Public: no credential needed.';
  const scopes = (security ?? []).flatMap((req) => Object.values(req).flat());
  return scopes.length ? `Scope: ${scopes.join(', ')}.` : 'Needs a bearer credential.';
}

function operationPassage(
  doc: Json,
  path: string,
  method: string,
  item: Json,
  op: Json & { operationId: string },
  toolNames: Set<string>,
): DocsPassage {
  const id = op.operationId;
  const summary = typeof op.summary === 'string' ? op.summary : id;
  const args = argumentLines(doc, Array.isArray(item.parameters) ? item.parameters : [], op);
  const { success, errors } = responseLines(doc, op);
  // An operation the manifest keeps out of the tool list (a browser page, a liveness probe) says so.
  const kind = toolNames.has(id) ? 'Tool' : 'Operation (not an MCP tool)';
  const text = [
    `${kind} \`${id}\` (${method.toUpperCase()} ${path}): ${summary}. ${scopeLine(doc, op)}`,
    typeof op.description === 'string' ? op.description.trim() : null,
    args.length ? `Arguments:\n${args.join('\n')}` : 'Arguments: none.',
    success ? `Answers ${success}` : null,
    errors.length ? `Errors:\n${errors.join('\n')}` : null,
  ]
    .filter((part): part is string => part !== null)
    .join('\n\n');
  return {
    id: `openapi:${id}`,
    title: summary,
    heading: `${method.toUpperCase()} ${path}`,
    text,
    source: `openapi:${id}`,
    tools: [id, ...toolsMentioned(text, toolNames).filter((t) => t !== id)],
  };
}

export function contractPassages(doc: Json, toolNames: Set<string>): DocsPassage[] {
  return Object.entries(isObject(doc.paths) ? doc.paths : {}).flatMap(([path, raw]) => {
    const item = resolve(doc, raw);
    return METHODS.flatMap((method) => {
      const op = item[method];
      return isObject(op) && typeof op.operationId === 'string'
        ? [operationPassage(doc, path, method, item, { ...op, operationId: op.operationId }, toolNames)]
        : [];
    });
  });
}
