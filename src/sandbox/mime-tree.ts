// A stored RFC 5322 message as the tree of parts Gmail's `format=full` shows (MessagePart): each part's
// headers in order (unfolded, encoded-words decoded), its MIME type, and a leaf's content after its
// transfer encoding is undone. Written for mail the sandbox stores (ours, and whatever a client sent
// through the sandbox's send), so it never throws: what it cannot read stays one opaque text part.

export interface MimeHeader {
  name: string;
  value: string;
}

export interface MimePart {
  headers: MimeHeader[];
  mimeType: string;
  filename: string;
  /** A leaf's decoded content; empty for a multipart. */
  content: Buffer;
  parts: MimePart[];
}

const MAX_DEPTH = 8;
const MAX_PARTS = 64;

/** `=?charset?B|Q?text?=` words (RFC 2047), decoded with the charset when the runtime knows it. */
export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=/g, (word, charset: string, enc: string, text: string) => {
      try {
        const bytes =
          enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : quotedPrintable(text.replace(/_/g, ' '), false);
        return new TextDecoder(charset.split('*')[0], { fatal: false }).decode(bytes);
      } catch {
        return word;
      }
    });
}

function quotedPrintable(text: string, softBreaks = true): Buffer {
  const joined = softBreaks ? text.replace(/=\r?\n/g, '') : text;
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined[i] === '=' ? joined.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i], 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** The header block's fields, unfolded and in order, and the body after the first blank line. */
function splitHeaders(text: string): { headers: MimeHeader[]; body: string } {
  const end = /\r?\n\r?\n/.exec(text);
  const block = end ? text.slice(0, end.index) : text;
  const body = end ? text.slice(end.index + end[0].length) : '';
  const headers: MimeHeader[] = [];
  for (const line of block.split(/\r?\n/)) {
    const last = headers[headers.length - 1];
    if (/^[ \t]/.test(line) && last) last.value += ` ${line.trim()}`;
    else {
      const colon = line.indexOf(':');
      if (colon > 0) headers.push({ name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() });
    }
  }
  for (const h of headers) h.value = decodeWords(h.value);
  return { headers, body };
}

const header = (headers: MimeHeader[], name: string) => headers.find((h) => h.name.toLowerCase() === name)?.value ?? '';

/** A structured header's `name=value` parameters (quoted or not), keys lower-cased. */
export function headerParams(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of value.matchAll(/;\s*([\w.*-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]+)/g))
    out[m[1].toLowerCase()] = m[2].startsWith('"') ? m[2].slice(1, -1).replace(/\\(.)/g, '$1') : m[2];
  return out;
}

function decodeContent(body: string, encoding: string): Buffer {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
    case 'quoted-printable':
      return quotedPrintable(body);
    default:
      return Buffer.from(body, 'utf8');
  }
}

function parsePart(text: string, depth: number, budget: { parts: number }): MimePart {
  const { headers, body } = splitHeaders(text);
  const contentType = header(headers, 'content-type');
  const mimeType = (/^\s*([\w.+-]+\/[\w.+-]+)/.exec(contentType)?.[1] ?? 'text/plain').toLowerCase();
  const params = headerParams(contentType);
  const filename = headerParams(header(headers, 'content-disposition')).filename ?? params.name ?? '';
  const part: MimePart = { headers, mimeType, filename, content: Buffer.alloc(0), parts: [] };
  const boundary = params.boundary;
  if (mimeType.startsWith('multipart/') && boundary && depth < MAX_DEPTH) {
    const escaped = boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // Parts lie between the delimiters, before the closing one; the first piece is the preamble.
    const closing = body.search(new RegExp(`(?:^|\\r?\\n)--${escaped}--`));
    const inside = closing >= 0 ? body.slice(0, closing) : body;
    const segments = inside.split(new RegExp(`(?:^|\\r?\\n)--${escaped}[ \\t]*(?:\\r?\\n|$)`)).slice(1);
    for (const segment of segments) {
      if (budget.parts >= MAX_PARTS) break;
      budget.parts += 1;
      part.parts.push(parsePart(segment, depth + 1, budget));
    }
    return part;
  }
  part.content = decodeContent(body, header(headers, 'content-transfer-encoding'));
  return part;
}

export function parseMime(raw: string): MimePart {
  try {
    return parsePart(raw, 0, { parts: 0 });
  } catch {
    return { headers: [], mimeType: 'text/plain', filename: '', content: Buffer.from(raw, 'utf8'), parts: [] };
  }
}
