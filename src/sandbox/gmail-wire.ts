// What the sandbox's Gmail answers, in Google's shapes: the error body every Google API returns
// ({error: {code, message, errors: [{message, domain, reason}], status}}), the scope rules of the read API,
// and the Message resource in each `format`.
import { GMAIL_METADATA_SCOPE, GMAIL_READONLY_SCOPE } from '../handlers/connectors/google/google-endpoints.ts';
import type { SandboxMailRow } from '../handlers/connectors/sandbox-mailbox-data.ts';
import { parseMime, type MimePart } from './mime-tree.ts';

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
};

export function googleError(code: 400 | 401 | 403 | 404, message: string, reason: string): Response {
  const body = { error: { code, message, errors: [{ message, domain: 'global', reason }], status: STATUS[code] } };
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=UTF-8' };
  if (code === 401) headers['www-authenticate'] = 'Bearer';
  return new Response(JSON.stringify(body), { status: code, headers });
}

export const notFound = () => googleError(404, 'Requested entity was not found.', 'notFound');
export const insufficientScope = () =>
  googleError(403, 'Request had insufficient authentication scopes.', 'insufficientPermissions');
export const invalidArgument = (message: string) => googleError(400, message, 'invalidArgument');

// Scopes that read mail. Google also counts gmail.modify and the full-mail scope; the service asks for neither.
const FULL_READ = [GMAIL_READONLY_SCOPE, 'https://www.googleapis.com/auth/gmail.modify', 'https://mail.google.com/'];

/** Whether a grant may read the mailbox at all (headers, labels, history). */
export const canRead = (scopes: readonly string[]) =>
  scopes.includes(GMAIL_METADATA_SCOPE) || FULL_READ.some((s) => scopes.includes(s));

/**
 * Whether a grant sees only metadata: no `format=full|raw`, no `q`. Google applies this restriction to any token
 * that carries gmail.metadata, even beside gmail.readonly (a long-standing Gmail quirk), and so does the sandbox:
 * read_reply_text asks for gmail.readonly alone (google-endpoints.ts), so the sandbox answers as Google would.
 */
export const metadataOnly = (scopes: readonly string[]) =>
  scopes.includes(GMAIL_METADATA_SCOPE) || !FULL_READ.some((s) => scopes.includes(s));

/** `maxResults` as Gmail reads it: default 100, at most 500. */
export function maxResults(value: string | undefined): number | undefined {
  if (value === undefined) return 100;
  if (!/^\d+$/.test(value)) return undefined;
  return Math.min(Math.max(Number(value), 1), 500);
}

/** Page tokens are the history id the next page continues from, opaque to the caller. */
export const pageToken = {
  make: (historyId: string) => Buffer.from(`h${historyId}`).toString('base64url'),
  read: (token: string) => /^h(\d{1,19})$/.exec(Buffer.from(token, 'base64url').toString('utf8'))?.[1],
};

export type MessageFormat = 'minimal' | 'metadata' | 'full' | 'raw';

export function parseFormat(value: string | undefined): MessageFormat | undefined {
  const f = (value ?? 'full').toLowerCase();
  return f === 'minimal' || f === 'metadata' || f === 'full' || f === 'raw' ? f : undefined;
}

function snippet(row: SandboxMailRow): string {
  return (row.text_body ?? '').replace(/\s+/g, ' ').trim().slice(0, 200);
}

/** Gmail's MessagePart: ids "" for the root, then "0", "1", "1.0"…; a leaf's content as base64url. */
function messagePart(part: MimePart, partId: string): Record<string, unknown> {
  const base = { partId, mimeType: part.mimeType, filename: part.filename, headers: part.headers };
  if (part.parts.length)
    return {
      ...base,
      body: { size: 0 },
      parts: part.parts.map((p, i) => messagePart(p, partId ? `${partId}.${i}` : String(i))),
    };
  return { ...base, body: { size: part.content.length, data: part.content.toString('base64url') } };
}

/**
 * The Message resource. `metadataHeaders` keeps only the named headers (case-insensitively) in `metadata`;
 * a metadata-only grant gets no snippet (it is the body's text).
 */
export function messageResource(
  row: SandboxMailRow,
  format: MessageFormat,
  options: { metadataHeaders: string[]; withSnippet: boolean },
): Record<string, unknown> {
  const resource: Record<string, unknown> = {
    id: row.id,
    threadId: row.thread_id,
    labelIds: row.labels,
    ...(options.withSnippet ? { snippet: snippet(row) } : {}),
    historyId: row.history_id,
    internalDate: String(row.created_at.getTime()),
    sizeEstimate: Buffer.byteLength(row.raw, 'utf8'),
  };
  if (format === 'minimal') return resource;
  if (format === 'raw') return { ...resource, raw: Buffer.from(row.raw, 'utf8').toString('base64url') };
  const tree = parseMime(row.raw);
  if (format === 'full') return { ...resource, payload: messagePart(tree, '') };
  const wanted = options.metadataHeaders.map((h) => h.toLowerCase());
  const headers = wanted.length ? tree.headers.filter((h) => wanted.includes(h.name.toLowerCase())) : tree.headers;
  return {
    ...resource,
    payload: { partId: '', mimeType: tree.mimeType, filename: '', headers, body: { size: 0 } },
  };
}
