// Extracts the bearer credentials from one Authorization header value, in the order sent.

/** More would only let a client make us verify an unbounded list of tokens per request. */
export const maxBearerCredentials = 4;
const maxHeaderLength = 8192;
/** RFC 6750 b64token (token68). */
const token68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * Accepts repeats separated by commas or spaces (`Bearer a, Bearer b`, `Bearer a Bearer b`);
 * the scheme name is case-insensitive. Words not introduced by `Bearer` are ignored.
 */
const single = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;

export function bearerCredentials(header: string | undefined): string[] {
  if (!header || header.length > maxHeaderLength) return [];
  // The common case, one credential, without splitting the header.
  const one = single.exec(header);
  if (one) return [one[1]];
  const words = header.split(/[\s,]+/).filter((word) => word !== '');
  const credentials: string[] = [];
  for (let i = 0; i < words.length - 1 && credentials.length < maxBearerCredentials; i += 1) {
    if (words[i].toLowerCase() !== 'bearer') continue;
    const candidate = words[i + 1];
    if (candidate.toLowerCase() === 'bearer') continue;
    i += 1;
    if (token68.test(candidate)) credentials.push(candidate);
  }
  return credentials;
}
