// Gmail's message JSON (users.messages.get and users.threads.get) read defensively: whatever an inbound
// message or the provider puts there (missing fields, odd types, CRLF in headers, megabyte values, deep
// multiparts, bytes in any charset), the result is a MessageMetadata or FullMessage, never an exception,
// except a ProviderError('bad_response') for an answer without the message's ids. linkedom, for a body that is
// HTML only, loads at the first such body (src/load-once.ts).
import { loadOnce } from '../../../load-once.ts';
import type { FullMessage, MessageMetadata, MessageRef } from '../providers/mailbox.ts';
import { isObject, ProviderError } from './google-client.ts';

/** Longest header value kept: a hostile message's 1 MB subject must not travel through the sync. */
const MAX_HEADER_CHARS = 8_192;
const MAX_HEADERS = 400;
/** Longest text kept from a body. */
const MAX_TEXT_CHARS = 100_000;
/** Deepest and widest MIME tree walked (a nested multipart bomb ends here). */
const MAX_DEPTH = 12;
const MAX_PARTS = 500;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export function messageRef(value: unknown, what: string): MessageRef {
  const m = isObject(value) ? value : {};
  const id = str(m.id);
  const threadId = str(m.threadId);
  if (!id || !threadId) throw new ProviderError('bad_response', `${what}: a message without its id or thread id`);
  return { id, threadId, labelIds: list(m.labelIds).filter((l): l is string => typeof l === 'string') };
}

/** Header values by lower-cased name; CR/LF become spaces so a value can never start a header of ours. */
function headersOf(payload: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const h of list(payload.headers).slice(0, MAX_HEADERS)) {
    if (!isObject(h)) continue;
    const name = str(h.name)?.trim().toLowerCase();
    const value = str(h.value);
    if (!name || value === undefined) continue;
    (out[name] ??= []).push(value.slice(0, MAX_HEADER_CHARS).replace(/[\r\n]+/g, ' '));
  }
  return out;
}

/** Gmail's internalDate (ms since the epoch, as a string), else the Date header, else the epoch. */
function receivedAt(m: Record<string, unknown>, headers: Record<string, string[]>): Date {
  const internal = str(m.internalDate) ?? (typeof m.internalDate === 'number' ? String(m.internalDate) : undefined);
  if (internal && /^\d{1,15}$/.test(internal)) return new Date(Number(internal));
  const dated = headers.date?.[0] ? new Date(headers.date[0]) : undefined;
  return dated && !Number.isNaN(dated.getTime()) ? dated : new Date(0);
}

export function messageMetadata(value: unknown, what: string): MessageMetadata {
  const ref = messageRef(value, what);
  const m = value as Record<string, unknown>;
  const headers = headersOf(isObject(m.payload) ? m.payload : {});
  return { ...ref, receivedAt: receivedAt(m, headers), headers };
}

interface Part {
  mimeType: string;
  headers: Record<string, string[]>;
  data?: string;
}

/** The MIME tree's leaves, depth first, bounded. */
function leaves(payload: unknown): Part[] {
  const out: Part[] = [];
  let seen = 0;
  const walk = (node: unknown, depth: number) => {
    if (!isObject(node) || depth > MAX_DEPTH || ++seen > MAX_PARTS) return;
    const parts = list(node.parts);
    const body = isObject(node.body) ? node.body : {};
    const data = str(body.data);
    if (data !== undefined || parts.length === 0)
      out.push({ mimeType: (str(node.mimeType) ?? '').toLowerCase(), headers: headersOf(node), data });
    for (const part of parts) walk(part, depth + 1);
  };
  walk(payload, 0);
  return out;
}

function decode(part: Part): string {
  const bytes = Buffer.from(part.data ?? '', 'base64url');
  const charset = /charset="?([\w.:-]+)"?/i.exec(part.headers['content-type']?.[0] ?? '')?.[1] ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(bytes.subarray(0, MAX_TEXT_CHARS * 4)).slice(0, MAX_TEXT_CHARS);
}

const isAttachment = (part: Part) => /^\s*attachment/i.test(part.headers['content-disposition']?.[0] ?? '');

const linkedom = loadOnce(() => import('linkedom'));

async function htmlText(html: string): Promise<string> {
  const { parseHTML } = await linkedom();
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  for (const node of document.querySelectorAll('script, style, head')) node.remove();
  return (document.body?.textContent ?? '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The readable text: the first text/plain part, else the first HTML part's text. */
async function textOf(parts: Part[]): Promise<string | null> {
  const plain = parts.find((p) => p.mimeType === 'text/plain' && p.data !== undefined && !isAttachment(p));
  if (plain) return decode(plain);
  const html = parts.find((p) => p.mimeType === 'text/html' && p.data !== undefined && !isAttachment(p));
  return html ? (await htmlText(decode(html))).slice(0, MAX_TEXT_CHARS) : null;
}

/** A DSN's per-recipient `Status:` (RFC 3464), e.g. 5.1.1, from its message/delivery-status part. */
function deliveryStatusOf(parts: Part[]): string | null {
  const report = parts.find((p) => p.mimeType === 'message/delivery-status' && p.data !== undefined);
  if (!report) return null;
  return /^Status:\s*([245]\.\d{1,3}\.\d{1,3})\b/im.exec(decode(report))?.[1] ?? null;
}

export async function fullMessage(value: unknown, what: string): Promise<FullMessage> {
  const metadata = messageMetadata(value, what);
  const parts = leaves((value as Record<string, unknown>).payload);
  return { ...metadata, text: await textOf(parts), deliveryStatus: deliveryStatusOf(parts) };
}
