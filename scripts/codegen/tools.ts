// Builds one MCP tool descriptor per operation: the merged inputSchema, outputSchema, annotations,
// and the binding that says where each argument goes in the HTTP request.
import { compactInputSchema, compactOutputSchema } from './compact-schema.ts';
import { inlineSchema } from './inline-schema.ts';
import { isObject, type Json, type JsonObject } from './load.ts';
import type { AppliedTool } from './manifest.ts';
import { distinctSuccessBodies, successResponse, type OperationModel } from './model.ts';
import { argName, headerArgName, uniqueNamer } from './naming.ts';
import { asObjectSchema } from './object-schema.ts';
import { strictProfileViolations } from './strict-profile.ts';

export interface ArgBinding {
  name: string;
  in: 'path' | 'query' | 'header' | 'body';
  key: string;
  /** A query array sent as one comma-joined value (`style: form, explode: false`), not as the key repeated. */
  explode?: false;
}

export interface Binding {
  operationId: string;
  method: string;
  path: string;
  body: 'none' | 'merged' | 'whole';
  contentType?: string;
  args: ArgBinding[];
}

export interface Descriptor {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations: JsonObject;
  toolset?: string;
  binding: Binding;
}

const SKIPPED_HEADERS = new Set(['authorization', 'content-type', 'accept', 'content-length']);

/**
 * Characters of compact JSON each of a tool's two schemas may take. Clients send every tool schema to the model
 * on every turn; 16 KiB still holds the widest schemas real documents write out whole (twilio's CreateStream
 * input is about 15 KB), while a recursive group is cut to a described stub where it would grow past it.
 */
export const TOOL_SCHEMA_BUDGET = 16 * 1024;
/** The least share of the budget an argument gets when the arguments before it used the rest. */
const MIN_ARGUMENT_SHARE = 1024;
/** The input object around the arguments: `type`, `properties`, `additionalProperties`, the braces. */
const INPUT_WRAPPER = 80;

export interface InputParts {
  properties: JsonObject;
  required: string[];
  args: ArgBinding[];
  body: Binding['body'];
}

/** Merges path, query, header and body fields into one argument object, renaming collisions. */
export function buildInput(doc: JsonObject, op: OperationModel): InputParts {
  const parts: InputParts = { properties: {}, required: [], args: [], body: 'none' };
  const unique = uniqueNamer();
  const seen = new Set<string>();
  // The arguments share one budget, in order: parameters (usually small) first, then the body.
  let left = TOOL_SCHEMA_BUDGET - INPUT_WRAPPER;
  const inline = (schema: Json) =>
    inlineSchema(doc, schema, { mode: 'input', maxChars: Math.max(left, MIN_ARGUMENT_SHARE) });
  const add = (
    location: ArgBinding['in'],
    key: string,
    schema: JsonObject,
    required: boolean,
    commaSeparated = false,
  ) => {
    let name = location === 'header' ? headerArgName(key) : argName(key);
    if (seen.has(name)) name = argName(`${location}_${key}`);
    name = unique(name);
    seen.add(name);
    parts.properties[name] = schema;
    if (required) parts.required.push(name);
    parts.args.push(commaSeparated ? { name, in: location, key, explode: false } : { name, in: location, key });
    left -= JSON.stringify(schema).length + (name.length + 4) * (required ? 2 : 1);
  };
  for (const p of op.parameters) {
    if (p.in === 'cookie' || (p.in === 'header' && SKIPPED_HEADERS.has(p.name.toLowerCase()))) continue;
    const schema = inline(p.schema);
    if (p.description && schema.description === undefined) schema.description = p.description;
    add(p.in, p.name, schema, p.required, p.commaSeparated);
  }
  if (op.body) {
    const schema = inline(op.body.schema);
    const object = asObjectSchema(schema);
    const props = object && isObject(object.properties) ? object.properties : undefined;
    // A body declared open (`additionalProperties: true` or a schema) is a map: it travels whole. A closed one
    // (`additionalProperties: false`) or one that says nothing is merged field by field.
    const freeForm = object && object.additionalProperties !== undefined && object.additionalProperties !== false;
    if (props && Object.keys(props).length && !freeForm) {
      parts.body = 'merged';
      const required = new Set(Array.isArray(object?.required) ? object.required.map(String) : []);
      for (const [key, sub] of Object.entries(props))
        add('body', key, isObject(sub) ? sub : {}, op.body.required && required.has(key));
    } else {
      parts.body = 'whole';
      if (op.body.description && schema.description === undefined) schema.description = op.body.description;
      add('body', 'body', schema, op.body.required);
      parts.args[parts.args.length - 1].key = '';
    }
  }
  return parts;
}

function annotationsFor(op: OperationModel): JsonObject {
  switch (op.method) {
    case 'get':
    case 'head':
    case 'options':
      return { readOnlyHint: true };
    case 'delete':
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: true };
    case 'put':
      return { readOnlyHint: false, idempotentHint: true };
    default:
      return { readOnlyHint: false };
  }
}

function describe(op: OperationModel): string {
  const parts = [op.summary, op.description].filter((s): s is string => Boolean(s));
  if (parts.length === 2 && parts[1].startsWith(parts[0])) parts.shift();
  const text = parts.join('\n\n') || `${op.method.toUpperCase()} ${op.path}`;
  return text.length > 1024 ? `${text.slice(0, 1021)}...` : text;
}

export function buildDescriptor(
  doc: JsonObject,
  tool: AppliedTool,
  input = buildInput(doc, tool.op),
): { descriptor: Descriptor; violations: string[] } {
  const { op, override, name } = tool;
  const headers = new Set(input.args.filter((a) => a.in === 'header').map((a) => a.name));
  const written: JsonObject = { type: 'object', properties: input.properties };
  if (input.required.length) written.required = input.required;
  written.additionalProperties = false;
  // Every tools/list carries both schemas to the model: compact-schema.ts says what each keeps and why.
  const inputSchema = compactInputSchema(written, headers);
  // With two different success bodies (200 or 202) no single outputSchema is true: none is promised.
  const success = distinctSuccessBodies(op).length ? undefined : successResponse(op);
  // The output schema is there for clients to check structuredContent against, and every tools/list carries it:
  // its annotations go (the API reference keeps them), and compaction keeps every property, type and enum.
  const outputOptions = { mode: 'output', maxChars: TOOL_SCHEMA_BUDGET, dropAnnotations: true } as const;
  const inlined =
    success?.schema !== undefined ? asObjectSchema(inlineSchema(doc, success.schema, outputOptions)) : undefined;
  const output = inlined && compactOutputSchema(inlined);
  const binding: Binding = {
    operationId: op.operationId ?? name,
    method: op.method.toUpperCase(),
    path: op.path,
    body: input.body,
    args: input.args,
  };
  if (op.body) binding.contentType = op.body.contentType;
  const descriptor: Descriptor = {
    name,
    title: override.title ?? op.summary ?? name,
    description: override.description ?? describe(op),
    inputSchema,
    annotations: { ...annotationsFor(op), ...(override.annotations ?? {}) },
    binding,
  };
  if (output) descriptor.outputSchema = output;
  if (override.toolset) descriptor.toolset = override.toolset;
  const violations = [
    ...strictProfileViolations(inputSchema, `${name}.inputSchema`),
    ...(output ? strictProfileViolations(output, `${name}.outputSchema`) : []),
  ];
  return { descriptor, violations };
}
