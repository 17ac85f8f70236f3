import { describe, expect, it } from 'vitest';
import { normalizeEmail } from '../../../src/handlers/leads/lead-email.ts';

/** 64 + 1 + 189 characters: the longest address accepted. */
const address254 = `${'a'.repeat(64)}@${'b'.repeat(61)}.${'c'.repeat(61)}.${'d'.repeat(61)}.com`;

describe('normalizeEmail', () => {
  it.each([
    ['lower-cases the local part and the domain', 'Jane.Doe@Acme.COM', 'jane.doe@acme.com'],
    ['trims surrounding spaces and tabs', '  jane@acme.com\t', 'jane@acme.com'],
    ['keeps plus addressing', 'jane+leads@acme.com', 'jane+leads@acme.com'],
    ['turns an IDN domain into punycode', 'josé@bücher.example', 'josé@xn--bcher-kva.example'],
    ['keeps a punycode domain as it is', 'jose@xn--bcher-kva.example', 'jose@xn--bcher-kva.example'],
    ['folds full-width domain letters', 'jane@ａｃｍｅ.com', 'jane@acme.com'],
    ['drops the trailing dot of a fully qualified domain', 'jane@acme.com.', 'jane@acme.com'],
    ['accepts subdomains and long TLDs', 'jane@mail.eu.acme.technology', 'jane@mail.eu.acme.technology'],
    ['accepts a 64-character local part', `${'a'.repeat(64)}@acme.com`, `${'a'.repeat(64)}@acme.com`],
    ['accepts an address of exactly 254 characters', address254, address254],
  ])('%s', (_, given, want) => {
    expect(normalizeEmail(given)).toEqual({ ok: true, email: want });
  });

  it.each([
    ['an empty string', ''],
    ['only spaces', '   '],
  ])('reports email_missing for %s', (_, given) => {
    expect(normalizeEmail(given)).toMatchObject({ ok: false, code: 'email_missing' });
  });

  it.each([
    ['no @', 'jane.acme.com'],
    ['two @', 'jane@doe@acme.com'],
    ['a space inside', 'jane doe@acme.com'],
    ['a space before the domain', 'jane@ acme.com'],
    ['nothing before the @', '@acme.com'],
    ['nothing after the @', 'jane@'],
    ['a domain without a dot', 'jane@localhost'],
    ['a one-letter TLD', 'jane@acme.c'],
    ['a numeric TLD (an IP address)', 'jane@192.168.0.1'],
    ['an address literal', 'jane@[192.168.0.1]'],
    ['consecutive dots in the domain', 'jane@acme..com'],
    ['a label starting with a dash', 'jane@-acme.com'],
    ['an underscore in the domain', 'jane@ac_me.com'],
    ['a leading dot in the local part', '.jane@acme.com'],
    ['consecutive dots in the local part', 'jane..doe@acme.com'],
    ['a comma in the local part', 'jane,doe@acme.com'],
    ['angle brackets ("Name <email>")', 'Jane <jane@acme.com>'],
    ['a 65-character local part', `${'a'.repeat(65)}@acme.com`],
    ['a domain label over 63 characters', `jane@${'a'.repeat(64)}.com`],
    ['an address of 255 characters', address254.replace('@b', '@bb')],
    ['a domain over 253 characters', `jane@${Array.from({ length: 5 }, () => 'a'.repeat(60)).join('.')}.com`],
  ])('reports email_invalid for %s', (_, given) => {
    const result = normalizeEmail(given);
    expect(result).toMatchObject({ ok: false, code: 'email_invalid' });
    expect(result.ok ? '' : result.message).not.toBe('');
  });
});
