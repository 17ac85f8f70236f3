// Emits src/generated/sdk.ts (one function per operation, named by operationId, taking the same flat
// argument object as the MCP tool) and src/generated/sdk-runtime.ts (copied from templates/).
import { readFileSync } from 'node:fs';
import type { OperationModel, SpecModel } from './model.ts';
import { distinctSuccessBodies, successResponse } from './model.ts';
import { propertyKey } from './naming.ts';
import type { Binding, InputParts } from './tools.ts';

/**
 * The tool's binding plus how the response is read: `parseAs: 'text'` when the success body is text (CSV,
 * HTML), and `redirect: 'manual'` when the operation declares a 3xx, so the caller gets the redirect (its
 * status and Location) instead of fetch following it to a page on another site.
 */
export type SdkBinding = Binding & { parseAs?: 'text'; redirect?: 'manual' };

export function sdkBinding(op: OperationModel, input: InputParts): SdkBinding {
  const binding: SdkBinding = {
    operationId: op.operationId ?? op.id,
    method: op.method.toUpperCase(),
    path: op.path,
    body: input.body,
    args: input.args,
  };
  if (op.body) binding.contentType = op.body.contentType;
  const success = successResponse(op);
  if (success?.kind && success.kind !== 'json') binding.parseAs = 'text';
  if (declaresRedirect(op)) binding.redirect = 'manual';
  return binding;
}

function declaresRedirect(op: OperationModel): boolean {
  return op.responses.some((r) => /^3(\d\d|XX)$/.test(r.status));
}

const q = JSON.stringify;

export function emitSdkRuntime(header: string): string {
  const source = readFileSync(new URL('./templates/sdk-runtime.ts', import.meta.url), 'utf8');
  return `${header}${source.replace(/^\/\/ Runtime of the generated SDK.*\n(\/\/.*\n)*/, '')}`;
}

function argType(op: OperationModel, binding: Binding, arg: Binding['args'][number]): string {
  const t = `NonNullable<paths[${q(op.path)}][${q(op.method)}]>`;
  if (arg.in === 'header') return 'string';
  if (arg.in === 'path' && op.parameters.some((p) => p.in === 'path' && p.name === arg.key && p.implicit))
    return 'string';
  if (arg.in === 'body') {
    const body = `NonNullable<${t}['requestBody']>['content'][${q(binding.contentType ?? '')}]`;
    return binding.body === 'whole' ? body : `NonNullable<${body}>[${q(arg.key)}]`;
  }
  return `NonNullable<${t}['parameters'][${q(arg.in)}]>[${q(arg.key)}]`;
}

function argsType(op: OperationModel, binding: Binding, required: Set<string>): string {
  if (!binding.args.length) return 'Record<string, never>';
  const fields = binding.args.map(
    (arg) => `  ${q(arg.name)}${required.has(arg.name) ? '' : '?'}: ${argType(op, binding, arg)};`,
  );
  return `{\n${fields.join('\n')}\n}`;
}

function successType(op: OperationModel): string {
  const several = distinctSuccessBodies(op);
  if (several.length) {
    return several
      .map(
        (r) =>
          `NonNullable<paths[${q(op.path)}][${q(op.method)}]>['responses'][${r.status}]['content'][${q(r.contentType as string)}]`,
      )
      .join(' | ');
  }
  const success = successResponse(op);
  if (!success || !success.contentType || !/^\d{3}$/.test(success.status)) return 'void';
  return `NonNullable<paths[${q(op.path)}][${q(op.method)}]>['responses'][${success.status}]['content'][${q(success.contentType)}]`;
}

function resultType(op: OperationModel): string {
  return declaresRedirect(op) ? `${successType(op)} | Redirect` : successType(op);
}

export interface SdkEntry {
  op: OperationModel;
  binding: SdkBinding;
  required: string[];
}

export function emitSdk(model: SpecModel, entries: SdkEntry[], header: string): string {
  const parts: string[] = [
    header,
    `import type { paths } from './types.ts';`,
    `import { createRuntime, type ClientOptions, type OperationBinding, type Redirect } from './sdk-runtime.ts';`,
    '',
    `export { ApiProblemError, type ClientOptions, type Redirect } from './sdk-runtime.ts';`,
    '',
  ];
  for (const { op, binding, required } of entries) {
    const name = op.typeName;
    parts.push(`export type ${name}Args = ${argsType(op, binding, new Set(required))};`);
    parts.push(`export type ${name}Result = ${resultType(op)};`);
    parts.push(`const ${op.id}Binding: OperationBinding = ${q(binding)};`, '');
  }
  parts.push('/** The typed client: one method per operation, each taking the same flat arguments as its MCP tool. */');
  parts.push('export function createClient(options: ClientOptions) {');
  parts.push('  const runtime = createRuntime<paths>(options);');
  parts.push('  return {');
  parts.push('    /** The underlying openapi-fetch client, for calls that need full control. */');
  parts.push('    raw: runtime.raw,');
  for (const { op, required } of entries) {
    const name = op.typeName;
    const optional = required.length === 0 ? ' = {}' : '';
    parts.push(`    ${op.id}: (args: ${name}Args${optional}) => runtime.call<${name}Result>(${op.id}Binding, args),`);
  }
  parts.push('  };', '}', '', 'export type Client = ReturnType<typeof createClient>;', '');
  parts.push('/** Bindings by operationId, for callers that dispatch by name (the stdio tool server). */');
  parts.push('export const operationBindings: Record<string, OperationBinding> = {');
  for (const { op } of entries) parts.push(`  ${propertyKey(op.operationId ?? op.id)}: ${op.id}Binding,`);
  parts.push('};', '');
  return parts.join('\n');
}
