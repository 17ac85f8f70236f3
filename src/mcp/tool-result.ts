// Turns the REST response of a tool call into an MCP CallToolResult, and caps its size.

import { STATUS_CODES } from 'node:http';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ArgumentNamer, FieldError } from './argument-names.ts';

export interface ResultShape {
  name: string;
  /** True when the tool advertises an outputSchema: successful results then carry structuredContent. */
  structured: boolean;
  /** How a caller gets the rest of a capped result (from the tool's pagination arguments). */
  pagingHint: string;
  capBytes: number;
  /** Maps the field errors of a REST validation problem to the tool's argument names. */
  argumentNames?: ArgumentNamer;
}

const JSON_TYPE = /\bjson\b/i;

function text(value: string, isError = false): CallToolResult {
  const content = [{ type: 'text' as const, text: value }];
  return isError ? { content, isError } : { content };
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function pagingHint(name: string, inputSchema: Record<string, unknown>): string {
  const props = isObject(inputSchema.properties) ? inputSchema.properties : {};
  if ('limit' in props && 'cursor' in props) {
    return (
      `call ${name} again with a smaller \`limit\` and pass each response's \`next_cursor\` as \`cursor\` ` +
      `to page through the rest`
    );
  }
  if ('limit' in props) return `call ${name} again with a smaller \`limit\``;
  return `narrow the request (more specific arguments or a more specific tool) so the result is smaller`;
}

/** Cuts `body` to the cap on a character boundary and says how to get the rest; never partial structured data. */
function capped(shape: ResultShape, body: string, contentType: string | null): CallToolResult | undefined {
  // UTF-8 needs at most 3 bytes per UTF-16 unit, so most results skip the exact byte count.
  if (body.length * 3 <= shape.capBytes) return undefined;
  const total = Buffer.byteLength(body);
  if (total <= shape.capBytes) return undefined;
  const incomplete = JSON_TYPE.test(contentType ?? 'json')
    ? 'the JSON is incomplete, and structuredContent is omitted'
    : `the ${mediaTypeOf(contentType)} text is cut`;
  const marker = (shown: number) =>
    `\n\n[result truncated: the response is ${total} bytes, over the ${shape.capBytes}-byte limit for one ` +
    `tool result. Only the first ${shown} bytes are shown above (${incomplete}). To get the rest, ${shape.pagingHint}.]`;
  // The marker with the cap in place of the shown count is at least as long as the final one.
  const room = new Uint8Array(Math.max(0, shape.capBytes - Buffer.byteLength(marker(shape.capBytes))));
  const { read, written } = new TextEncoder().encodeInto(body, room);
  // isError: a successful result of a tool with an outputSchema must carry complete structuredContent,
  // which a cut one cannot.
  return text(body.slice(0, read) + marker(written), true);
}

/**
 * `Invalid arguments for <tool>: \`name\` <message> (<code>); …` when every field error of a validation
 * problem names a tool argument; undefined otherwise (the problem's own detail then stands).
 */
function invalidArguments(shape: ResultShape, errors: FieldError[]): string | undefined {
  if (!shape.argumentNames || errors.length === 0) return undefined;
  const reasons: string[] = [];
  for (const e of errors) {
    const name = shape.argumentNames(e);
    if (name === undefined) return undefined;
    reasons.push(`\`${name}\` ${e.message ?? 'is invalid'}${e.code ? ` (${e.code})` : ''}`);
  }
  return `Invalid arguments for ${shape.name}: ${[...new Set(reasons)].join('; ')}. Fix them and call ${shape.name} again.`;
}

export function problemMessage(
  status: number,
  problem: Record<string, unknown> | undefined,
  shape?: ResultShape,
): string {
  // Reason phrases from the status table: in-process responses carry no statusText.
  const title = typeof problem?.title === 'string' ? problem.title : (STATUS_CODES[status] ?? 'Error');
  const errors = Array.isArray(problem?.errors) ? (problem.errors as FieldError[]) : [];
  const invalid = shape && problem?.code === 'validation_failed' ? invalidArguments(shape, errors) : undefined;
  if (invalid) return [`${status} ${title}: ${invalid}`, ...trailer(problem)].join('\n');
  const detail = typeof problem?.detail === 'string' ? `: ${problem.detail}` : '';
  const lines = [`${status} ${title}${detail}`];
  for (const e of errors) {
    const where = e.field ?? e.pointer?.replace(/^\//, '').replaceAll('/', '.') ?? '';
    lines.push(`- ${where ? `${where}: ` : ''}${e.message ?? ''}${e.code ? ` (${e.code})` : ''}`);
  }
  return [...lines, ...trailer(problem)].join('\n');
}

function trailer(problem: Record<string, unknown> | undefined): string[] {
  const lines: string[] = [];
  const resolution = problem?.resolution;
  if (resolution !== undefined) lines.push(`Next step: ${JSON.stringify(resolution)}`);
  if (typeof problem?.request_id === 'string') lines.push(`request_id: ${problem.request_id}`);
  return lines;
}

function errorResult(shape: ResultShape, res: Response, body: string): CallToolResult {
  const parsed = JSON_TYPE.test(res.headers.get('content-type') ?? '') ? parseJson(body) : undefined;
  const problem = isObject(parsed) ? parsed : undefined;
  const message = problemMessage(res.status, problem, shape);
  // 1.x clients (through 1.32) validate structuredContent against the outputSchema even on isError results
  // (typescript-sdk#1943), so for those tools the problem travels as JSON text instead.
  if (problem && !shape.structured) {
    return { content: [{ type: 'text', text: message }], structuredContent: problem, isError: true };
  }
  const raw = problem ? `\n\n${body}` : body ? `\n\n${body.slice(0, 2000)}` : '';
  return text(message + raw, true);
}

function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? '').split(';')[0].trim();
}

export function toToolResult(shape: ResultShape, res: Response, body: string): CallToolResult {
  const type = res.headers.get('content-type');
  if (res.status < 200 || res.status > 299) return capped(shape, body, type) ?? errorResult(shape, res, body);
  if (body === '') {
    return text(`${res.status} ${STATUS_CODES[res.status] ?? 'OK'}: the operation succeeded and returned no content.`);
  }
  const cut = capped(shape, body, type);
  if (cut) return cut;
  if (!shape.structured) return text(body);
  const parsed = parseJson(body);
  // The JSON text stays as the API sent it: clients that only read `content` get the same bytes.
  return isObject(parsed) ? { content: [{ type: 'text', text: body }], structuredContent: parsed } : text(body);
}
