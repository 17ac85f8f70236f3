// A signed link's tag is accepted only as the service wrote it: not in another base64url spelling of the same bytes.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tagMatches } from '../../src/auth/signed-tag.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** A 16-byte tag, as the service's links carry (22 characters; the last one's 4 low bits are unused). */
const tag = createHmac('sha256', 'k').update('payload').digest().subarray(0, 16);
const written = tag.toString('base64url');
/** The same bytes spelled differently: the last character with one of its unused bits flipped. */
const otherSpelling = written.slice(0, -1) + ALPHABET[ALPHABET.indexOf(written.at(-1)!) ^ 1];

describe('tagMatches', () => {
  it('accepts the tag as written', () => {
    expect(tagMatches(written, tag)).toBe(true);
  });

  it('refuses another spelling that decodes to the same bytes', () => {
    expect(Buffer.from(otherSpelling, 'base64url').equals(tag)).toBe(true); // what a decode-and-compare accepted
    expect(tagMatches(otherSpelling, tag)).toBe(false);
  });

  it('refuses the tag with a character the decoder would skip, with padding, or with a space', () => {
    for (const given of [`${written.slice(0, 5)}!${written.slice(5)}`, `${written}==`, `${written} `]) {
      expect(Buffer.from(given, 'base64url').equals(tag)).toBe(true);
      expect(tagMatches(given, tag)).toBe(false);
    }
  });

  it('refuses a changed character, a shorter tag and an empty one', () => {
    const changed = (written[0] === 'A' ? 'B' : 'A') + written.slice(1);
    expect(tagMatches(changed, tag)).toBe(false);
    expect(tagMatches(written.slice(0, -1), tag)).toBe(false);
    expect(tagMatches('', tag)).toBe(false);
  });
});
