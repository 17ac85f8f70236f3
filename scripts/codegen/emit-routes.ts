// Emits src/generated/routes.ts: one @hono/zod-openapi route per operation, with zod schemas for
// path, query, headers, body and every response, plus the operation table the app and auth read.
import { deref, isObject, type Json, type JsonObject } from './load.ts';
import type { MediaModel, OperationModel, ParamModel, SpecModel } from './model.ts';
import { uncheckedTextPointers } from './unchecked-text.ts';
import { ZodEmitter } from './zod.ts';

const SKIPPED_HEADERS = new Set(['authorization', 'content-type', 'accept', 'content-length']);

function resolveTop(doc: JsonObject, schema: Json): JsonObject {
  try {
    const resolved = deref(doc, schema);
    return isObject(resolved) ? resolved : {};
  } catch {
    return {};
  }
}

const JS_TYPES: Record<string, (value: Json) => boolean> = {
  string: (v) => typeof v === 'string',
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === 'number',
  boolean: (v) => typeof v === 'boolean',
};

/** Whether a default can be written as `.default(value)`: documents carry defaults such as `"10"` on integers. */
function defaultFits(doc: JsonObject, schema: JsonObject, value: Json): boolean {
  if (value === null || isObject(value)) return false;
  if (Array.isArray(schema.enum)) return schema.enum.includes(value);
  if ('const' in schema) return schema.const === value;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'array')
    return Array.isArray(value) && value.every((item) => defaultFits(doc, resolveTop(doc, schema.items ?? {}), item));
  if (Array.isArray(value)) return false;
  return typeof type === 'string' && type in JS_TYPES ? JS_TYPES[type](value) : type === undefined;
}

/**
 * A comma-separated array: an enum of strings is checked as a whole, with one error naming the values allowed.
 * Whether it is required goes inside, since an empty value (no filter) becomes absent only after the split.
 */
function commaSeparatedExpr(zod: ZodEmitter, doc: JsonObject, p: ParamModel, s: JsonObject, indent: string): string {
  const items = resolveTop(doc, s.items ?? {});
  const allowed = Array.isArray(items.enum) ? items.enum : undefined;
  if (allowed?.length && allowed.every((v) => typeof v === 'string')) {
    return `commaSeparatedEnum(${JSON.stringify([...new Set(allowed)])}, ${p.required})`;
  }
  const coerced = 'z.array(z.coerce.number()';
  const list = zod.expr({ ...s, type: 'array' }, indent).replace(/^z\.array\(z\.number\(\)/, coerced);
  return `commaSeparated(${list}, ${p.required})`;
}

/** Whether validation fills the parameter in when it is absent: a query or header default of the parameter's type. */
export function hasDefault(doc: JsonObject, p: ParamModel): boolean {
  const s = resolveTop(doc, p.schema);
  return s.default !== undefined && p.in !== 'path' && defaultFits(doc, s, s.default);
}

/** Parameters arrive as strings; numbers, booleans and arrays are coerced before validation. */
function paramExpr(zod: ZodEmitter, doc: JsonObject, p: ParamModel, indent: string): string {
  const s = resolveTop(doc, p.schema);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  const coerced = (schema: JsonObject) => zod.expr(schema, indent).replace(/^z\.number\(\)/, 'z.coerce.number()');
  let out: string;
  if ((type === 'integer' || type === 'number') && !s.enum) out = coerced(s);
  else if (type === 'boolean') out = 'z.stringbool()';
  else if (type === 'array' && p.commaSeparated) {
    const list = commaSeparatedExpr(zod, doc, p, s, indent);
    return hasDefault(doc, p) ? `${list}.default(${JSON.stringify(s.default)})` : list;
  } else if (type === 'array') {
    const items = resolveTop(doc, s.items ?? {});
    const inner = items.type === 'integer' || items.type === 'number' ? coerced(items) : zod.expr(s.items, indent);
    out = `z.preprocess((v) => (Array.isArray(v) ? v : v === undefined ? v : [v]), z.array(${inner}))`;
  } else out = zod.expr(p.schema, indent);
  if (hasDefault(doc, p)) return `${out}.default(${JSON.stringify(s.default)})`;
  return p.required ? out : `${out}.optional()`;
}

function paramObject(zod: ZodEmitter, doc: JsonObject, params: ParamModel[], indent: string): string {
  const inner = `${indent}  `;
  const lines = params.map(
    (p) =>
      `${inner}${JSON.stringify(p.in === 'header' ? p.name.toLowerCase() : p.name)}: ${paramExpr(zod, doc, p, inner)},`,
  );
  return `z.object({\n${lines.join('\n')}\n${indent}})`;
}

export function requestParams(op: OperationModel): Record<'path' | 'query' | 'header', ParamModel[]> {
  return {
    path: op.parameters.filter((p) => p.in === 'path'),
    query: op.parameters.filter((p) => p.in === 'query'),
    header: op.parameters.filter((p) => p.in === 'header' && !SKIPPED_HEADERS.has(p.name.toLowerCase())),
  };
}

function routeFor(zod: ZodEmitter, doc: JsonObject, op: OperationModel): string {
  const i2 = '    ';
  const i3 = '      ';
  const params = requestParams(op);
  const request: string[] = [];
  if (params.path.length) request.push(`${i3}params: ${paramObject(zod, doc, params.path, i3)},`);
  if (params.query.length) request.push(`${i3}query: ${paramObject(zod, doc, params.query, i3)},`);
  if (params.header.length) request.push(`${i3}headers: ${paramObject(zod, doc, params.header, i3)},`);
  if (op.body) {
    const content = op.body.media.map((m) => `${JSON.stringify(m.type)}: { schema: ${zod.expr(m.schema, `${i3}  `)} }`);
    // With several media types the route must not call the body required: @hono/zod-openapi would then run its
    // JSON validator on a CSV body. The operation guard refuses a missing body instead (415).
    const required = op.body.required && op.body.media.length === 1;
    request.push(`${i3}body: { required: ${required}, content: { ${content.join(', ')} } },`);
  }
  const responses = op.responses.map((r) => {
    const status = /^\d+$/.test(r.status) ? r.status : JSON.stringify(r.status);
    const content = r.contentType
      ? `, content: { ${JSON.stringify(r.contentType)}: { schema: ${zod.expr(r.schema, i3)} } }`
      : '';
    return `${i3}${status}: { description: ${JSON.stringify(r.description || r.status)}${content} },`;
  });
  const lines = [
    `${i2}operationId: ${JSON.stringify(op.operationId ?? op.id)},`,
    `${i2}method: ${JSON.stringify(op.method)},`,
    `${i2}path: ${JSON.stringify(op.path)},`,
  ];
  if (request.length) lines.push(`${i2}request: {\n${request.join('\n')}\n${i2}},`);
  lines.push(`${i2}responses: {\n${responses.join('\n')}\n${i2}},`);
  return `  ${op.id}: createRoute({\n${lines.join('\n')}\n  }),`;
}

/** Declared response media by status key (`200`, `4XX`, `default`); null for a response without content. */
function responseMedia(op: OperationModel): JsonObject {
  const out: JsonObject = {};
  for (const r of op.responses) out[r.status] = r.contentType ? { type: r.contentType, kind: r.kind ?? 'text' } : null;
  return out;
}

/** A body media type; `uncheckedText` only where the contract marks places `x-unchecked-text`. */
function bodyMedia(doc: JsonObject, media: MediaModel): JsonObject {
  const unchecked = uncheckedTextPointers(doc, media.schema);
  return unchecked.length
    ? { type: media.type, kind: media.kind, uncheckedText: unchecked }
    : { type: media.type, kind: media.kind };
}

function operationRow(doc: JsonObject, op: OperationModel): string {
  const body = op.body ? { required: op.body.required, media: op.body.media.map((m) => bodyMedia(doc, m)) } : null;
  const fields: Array<[string, Json]> = [
    ['operationId', op.operationId ?? op.id],
    ['handler', op.id],
    ['method', op.method.toUpperCase()],
    ['path', op.path],
    ['scopes', op.scopes],
    ['body', body],
    ['responses', responseMedia(op)],
  ];
  return `  meta({ ${fields.map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join(', ')} }),`;
}

/** Emitted only into a document that has a comma-separated query array, so every other output stays as it was. */
const COMMA_SEPARATED = `/**
 * A \`style: form, explode: false\` query array (\`?status=queued,running\`): split at commas, trimmed, blanks and
 * repeats dropped, nothing left meaning absent.
 */
const commaSeparated = (list: z.ZodType, required: boolean) =>
  z.preprocess((value: unknown) => {
    if (value === undefined) return value;
    const values = [value].flat().flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter(Boolean);
    return values.length ? [...new Set(values)] : undefined;
  }, required ? list : list.optional());

/** A comma-separated array of an enum: a value outside it is one error on the parameter, naming every value allowed. */
const commaSeparatedEnum = (allowed: readonly string[], required: boolean) =>
  commaSeparated(
    z.array(z.string()).superRefine((values, ctx) => {
      const wrong = values.find((v) => !allowed.includes(v));
      const message = \`has "\${wrong}", which is not one of \${allowed.join(', ')}\`;
      if (wrong !== undefined) ctx.addIssue({ code: 'custom', params: { code: 'invalid_value' }, message });
    }),
    required,
  );
`;

export function emitRoutes(model: SpecModel, header: string): string {
  const zod = new ZodEmitter(model.doc);
  const routes = model.operations.map((op) => routeFor(zod, model.doc, op));
  const commaSeparated = model.operations.some((op) => op.parameters.some((p) => p.commaSeparated));
  return [
    header,
    `import { createRoute, z } from '@hono/zod-openapi';`,
    '',
    ...(commaSeparated ? [COMMA_SEPARATED] : []),
    ...zod.declarations.map((d) => `${d}\n`),
    'export const routes = {',
    ...routes,
    '} as const;',
    '',
    '/** A declared media type and how the glue carries it: `json` validated by zod, `form` parsed, `text` as a string. */',
    "export interface MediaEntry { type: string; kind: 'json' | 'form' | 'text' }",
    '',
    '/** A request body media type; `uncheckedText` lists the places (JSON pointers, `*` any item) the text check skips. */',
    'export interface BodyMediaEntry extends MediaEntry { uncheckedText?: readonly string[] }',
    '',
    'export interface OperationMeta {',
    '  operationId: string;',
    '  /** Key in `routes` and in the handler interface. */',
    '  handler: keyof typeof routes;',
    '  method: string;',
    '  path: string;',
    '  /** Scopes the operation requires; null when it is public. */',
    '  scopes: readonly string[] | null;',
    '  /** The request body: whether it is required and every media type it may come in; null when there is none. */',
    '  body: { required: boolean; media: readonly BodyMediaEntry[] } | null;',
    '  /** The media type of each declared response, by status key (`200`, `4XX`, `default`); null when it has no content. */',
    '  responses: Readonly<Record<string, MediaEntry | null>>;',
    '}',
    '',
    '// Each row goes through meta() so its type is OperationMeta: thousands of distinct literal row types would',
    '// make the array type a union too complex to represent (TS2590).',
    'const meta = (row: OperationMeta): OperationMeta => row;',
    '',
    'export const operations: readonly OperationMeta[] = [',
    ...model.operations.map((op) => operationRow(model.doc, op)),
    '];',
    '',
  ].join('\n');
}
