// Entity tags for responses that browsers and caches revalidate: a strong tag from the body's hash, and
// If-None-Match matching as RFC 9110 §13.1.2 has it (weak comparison, a list, or `*`).
import { createHash } from 'node:crypto';

export const etagOf = (body: string | Uint8Array): string =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;

export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === opaque;
  });
}
