// Emits src/generated/handlers.ts: one typed function per operation, typed by openapi-typescript's
// `paths`. A handler map missing an operation, or returning an undeclared status, fails to compile.
import type { MediaModel, OperationModel, ResponseModel, SpecModel } from './model.ts';
import { hasDefault, requestParams } from './emit-routes.ts';
import type { JsonObject } from './load.ts';

const q = JSON.stringify;

function opType(op: OperationModel): string {
  return `NonNullable<paths[${q(op.path)}][${q(op.method)}]>`;
}

/** Declared path parameters come from the types; undeclared ones in the template are strings. */
function pathType(op: OperationModel, t: string): string {
  const implicit = op.parameters.filter((p) => p.in === 'path' && p.implicit).map((p) => `${q(p.name)}: string`);
  if (!implicit.length) return `${t}['parameters']['path']`;
  const extra = `{ ${implicit.join('; ')} }`;
  return implicit.length === op.parameters.filter((p) => p.in === 'path').length
    ? extra
    : `NonNullable<${t}['parameters']['path']> & ${extra}`;
}

/**
 * One media type: its value (a JSON value, or the text of a text body). Several: a union tagged by the media
 * type that was sent, `{ contentType: 'text/csv'; value: string } | { contentType: 'application/json'; value: ... }`.
 */
function bodyType(media: MediaModel[], content: string): string {
  if (media.length === 1) return `${content}[${q(media[0].type)}]`;
  return `(${media.map((m) => `{ contentType: ${q(m.type)}; value: ${content}[${q(m.type)}] }`).join(' | ')})`;
}

function inputType(doc: JsonObject, op: OperationModel): string {
  const t = opType(op);
  const params = requestParams(op);
  const fields: string[] = [];
  if (params.path.length) fields.push(`  path: ${pathType(op, t)};`);
  if (params.query.length) {
    const query = `NonNullable<${t}['parameters']['query']>`;
    // Validation fills in the contract's defaults, so the handler gets those parameters always.
    const defaulted = params.query.filter((p) => hasDefault(doc, p)).map((p) => q(p.name));
    fields.push(`  query: ${defaulted.length ? `WithDefaults<${query}, ${defaulted.join(' | ')}>` : query};`);
  }
  if (params.header.length) {
    const headers = params.header.map((p) => `${q(p.name.toLowerCase())}${p.required ? '' : '?'}: string`);
    fields.push(`  headers: { ${headers.join('; ')} };`);
  }
  if (op.body) {
    const body = bodyType(op.body.media, `NonNullable<${t}['requestBody']>['content']`);
    fields.push(`  body: ${op.body.required ? body : `${body} | undefined`};`);
  }
  return fields.length ? `{\n${fields.join('\n')}\n}` : 'Record<string, never>';
}

/** Headers the contract requires of a response (a redirect's `Location`) are required of the handler too. */
function headersType(r: ResponseModel): string {
  const required = r.headers.filter((h) => h.required).map((h) => `${q(h.name)}: string`);
  return required.length
    ? `headers: { ${required.join('; ')} } & Record<string, string>`
    : 'headers?: Record<string, string>';
}

/** A text body (CSV, HTML) may also be a stream, so a large download need not be held in memory. */
function responseBodyType(op: OperationModel, r: ResponseModel): string {
  const declared = `${opType(op)}['responses'][${r.status}]['content'][${q(r.contentType!)}]`;
  return r.kind === 'json' ? declared : `${declared} | BodyStream`;
}

function outputType(op: OperationModel): string {
  const variants = op.responses
    .filter((r) => /^\d{3}$/.test(r.status))
    .map((r) =>
      r.contentType
        ? `  | { status: ${r.status}; body: ${responseBodyType(op, r)}; ${headersType(r)} }`
        : `  | { status: ${r.status}; body?: undefined; ${headersType(r)} }`,
    );
  return variants.length
    ? `\n${variants.join('\n')}`
    : '{ status: number; body?: unknown; headers?: Record<string, string> }';
}

export function emitHandlers(model: SpecModel, header: string): string {
  const parts: string[] = [header, `import type { paths } from './types.ts';`, ''];
  parts.push('/** A streamed text body: chunks of UTF-8 bytes or strings. */');
  parts.push('export type BodyStream = ReadableStream<Uint8Array> | AsyncIterable<string | Uint8Array>;', '');
  if (model.operations.some((op) => op.parameters.some((p) => p.in === 'query' && hasDefault(model.doc, p)))) {
    parts.push(
      '/** Query parameters with a default in the contract: validation fills them in, so they are always there. */',
    );
    parts.push(
      'export type WithDefaults<Query, Key extends keyof Query> = Omit<Query, Key> & { [K in Key]-?: Exclude<Query[K], undefined> };',
      '',
    );
  }
  for (const op of model.operations) {
    const name = op.typeName;
    parts.push(`export type ${name}Input = ${inputType(model.doc, op)};`, '');
    parts.push(`export type ${name}Output = ${outputType(op)};`, '');
  }
  parts.push('/** One function per operation; `Ctx` is what the app passes along (principal, deps, request id). */');
  parts.push('export interface Handlers<Ctx> {');
  for (const op of model.operations) {
    const name = op.typeName;
    parts.push(`  ${op.id}(input: ${name}Input, ctx: Ctx): Promise<${name}Output>;`);
  }
  parts.push('}', '');
  return parts.join('\n');
}
