// Emits src/generated/handlers.ts: one typed function per operation, typed by openapi-typescript's
// `paths`. A handler map missing an operation, or returning an undeclared status, fails to compile.
import type { OperationModel, SpecModel } from './model.ts';
import { requestParams } from './emit-routes.ts';

const q = JSON.stringify;

function opType(op: OperationModel): string {
  return `NonNullable<paths[${q(op.path)}][${q(op.method)}]>`;
}

/** Declared path parameters come from the types; undeclared ones in the template are strings. */
function pathType(op: OperationModel, t: string): string {
  const implicit = op.parameters.filter((p) => p.in === 'path' && p.implicit).map((p) => `${q(p.name)}: string`);
  if (!implicit.length) return `${t}['parameters']['path']`;
  const extra = `{ ${implicit.join('; ')} }`;
  return implicit.length === op.parameters.filter((p) => p.in === 'path').length ? extra : `NonNullable<${t}['parameters']['path']> & ${extra}`;
}

function inputType(op: OperationModel): string {
  const t = opType(op);
  const params = requestParams(op);
  const fields: string[] = [];
  if (params.path.length) fields.push(`  path: ${pathType(op, t)};`);
  if (params.query.length) fields.push(`  query: NonNullable<${t}['parameters']['query']>;`);
  if (params.header.length) {
    const headers = params.header.map((p) => `${q(p.name.toLowerCase())}${p.required ? '' : '?'}: string`);
    fields.push(`  headers: { ${headers.join('; ')} };`);
  }
  if (op.body) {
    const body = `NonNullable<${t}['requestBody']>['content'][${q(op.body.contentType)}]`;
    fields.push(`  body: ${op.body.required ? body : `${body} | undefined`};`);
  }
  return fields.length ? `{\n${fields.join('\n')}\n}` : 'Record<string, never>';
}

function outputType(op: OperationModel): string {
  const t = opType(op);
  const variants = op.responses
    .filter((r) => /^\d{3}$/.test(r.status))
    .map((r) =>
      r.contentType
        ? `  | { status: ${r.status}; body: ${t}['responses'][${r.status}]['content'][${q(r.contentType)}]; headers?: Record<string, string> }`
        : `  | { status: ${r.status}; body?: undefined; headers?: Record<string, string> }`,
    );
  return variants.length ? `\n${variants.join('\n')}` : '{ status: number; body?: unknown; headers?: Record<string, string> }';
}

export function emitHandlers(model: SpecModel, header: string): string {
  const parts: string[] = [header, `import type { paths } from './types.ts';`, ''];
  for (const op of model.operations) {
    const name = op.typeName;
    parts.push(`export type ${name}Input = ${inputType(op)};`, '');
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
