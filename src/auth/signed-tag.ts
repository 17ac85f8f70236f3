// Checks the MAC tag of a signed link, token or cursor: in constant time, and only in the one base64url spelling
// the service writes. Decoding the given text and comparing bytes is not enough: base64url's last character
// carries unused bits, and Node's decoder skips characters outside the alphabet, so other spellings of the same
// tag would pass, and a test that "tampers" with a tag's last characters could leave it valid.
import { timingSafeEqual } from 'node:crypto';

export function tagMatches(given: string, expected: Uint8Array): boolean {
  const want = Buffer.from(Buffer.from(expected).toString('base64url'));
  const got = Buffer.from(given);
  return got.length === want.length && timingSafeEqual(got, want);
}
