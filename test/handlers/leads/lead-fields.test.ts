import { describe, expect, it } from 'vitest';
import { normalizeLead, type FieldError, type NormalizedLead } from '../../../src/handlers/leads/lead-fields.ts';

const blank: NormalizedLead = {
  email: 'jane@acme.com',
  first_name: null,
  last_name: null,
  company: null,
  title: null,
  phone: null,
  website: null,
  linkedin_url: null,
  timezone: null,
  tags: [],
  custom_fields: {},
};

function leadOf(input: Record<string, unknown>): NormalizedLead {
  const result = normalizeLead({ email: 'jane@acme.com', ...input });
  if ('errors' in result) throw new Error(`unexpected errors: ${JSON.stringify(result.errors)}`);
  return result.lead;
}

function errorsOf(input: Record<string, unknown>): FieldError[] {
  const result = normalizeLead({ email: 'jane@acme.com', ...input });
  if ('lead' in result) throw new Error(`expected errors, got ${JSON.stringify(result.lead)}`);
  return result.errors;
}

describe('normalizeLead', () => {
  it('normalises a complete row', () => {
    const lead = leadOf({
      email: ' Jane@Acme.com ',
      first_name: ' Jane ',
      last_name: 'Doe',
      company: 'Acme, Inc.',
      title: 'VP Sales',
      phone: '+1 (555)  010-2030 ext. 42',
      website: 'acme.com',
      linkedin_url: 'linkedin.com/in/janedoe',
      timezone: 'europe/berlin',
      tags: ['VIP', ' q3 ', 'vip'],
      custom_fields: { plan: ' pro ', seats: 12, trial: false, churned_at: null },
    });
    expect(lead).toEqual({
      email: 'jane@acme.com',
      first_name: 'Jane',
      last_name: 'Doe',
      company: 'Acme, Inc.',
      title: 'VP Sales',
      phone: '+1 (555) 010-2030 ext. 42',
      website: 'https://acme.com/',
      linkedin_url: 'https://linkedin.com/in/janedoe',
      timezone: 'Europe/Berlin',
      tags: ['VIP', 'q3'],
      custom_fields: { plan: 'pro', seats: 12, trial: false, churned_at: null },
    });
  });

  it('turns empty, blank, null and absent fields into null, [] and {}', () => {
    expect(leadOf({ first_name: '', last_name: '   ', company: null, tags: null, custom_fields: null })).toEqual(blank);
  });

  it('reports a missing email as email_missing', () => {
    expect(normalizeLead({ first_name: 'Jane' })).toEqual({
      errors: [{ column: 'email', value: '', code: 'email_missing', message: 'email is required' }],
    });
  });

  it('reports every error of a row, not only the first', () => {
    const result = normalizeLead({
      email: 'not-an-email',
      phone: 'call me',
      website: 'ftp://acme.com',
      nickname: 'JD',
      tags: 'vip',
    });
    expect('errors' in result && result.errors.map((e) => [e.column, e.code])).toEqual([
      ['nickname', 'unknown_field'],
      ['email', 'email_invalid'],
      ['phone', 'phone_invalid'],
      ['website', 'website_invalid'],
      ['tags', 'invalid_type'],
    ]);
  });

  it('names the unknown key and its value', () => {
    expect(errorsOf({ score: 42 })).toEqual([
      { column: 'score', value: '42', code: 'unknown_field', message: 'score is not a lead field' },
    ]);
  });

  it('refuses non-string values for text fields', () => {
    expect(
      errorsOf({ email: 42, first_name: 7, company: { name: 'Acme' } }).map((e) => [e.column, e.code, e.value]),
    ).toEqual([
      ['email', 'invalid_type', '42'],
      ['first_name', 'invalid_type', '7'],
      ['company', 'invalid_type', '{"name":"Acme"}'],
    ]);
  });

  describe('text lengths', () => {
    it.each([
      ['first_name', 100],
      ['last_name', 100],
      ['company', 200],
      ['title', 200],
    ])('accepts %s up to %i characters and refuses one more', (field, max) => {
      expect(leadOf({ [field]: 'x'.repeat(max) })[field as 'title']).toHaveLength(max);
      expect(errorsOf({ [field]: 'x'.repeat(max + 1) })).toMatchObject([{ column: field, code: 'too_long' }]);
    });

    it('measures the length after trimming', () => {
      expect(leadOf({ first_name: ` ${'x'.repeat(100)} ` }).first_name).toHaveLength(100);
    });

    it('cuts a long offending value in the error to 200 characters', () => {
      expect(errorsOf({ title: 'x'.repeat(5000) })[0].value).toHaveLength(200);
    });
  });

  describe('phone', () => {
    it.each([
      ['+49 30 1234567', '+49 30 1234567'],
      ['(555) 010-2030', '(555) 010-2030'],
      ['555.010.2030', '555.010.2030'],
      ['555-010-2030 x123', '555-010-2030 x123'],
      ['555 010 2030 #12', '555 010 2030 #12'],
      ['555\t010   2030', '555 010 2030'],
      ['12345', '12345'],
    ])('accepts %j as %j', (given, want) => {
      expect(leadOf({ phone: given }).phone).toBe(want);
    });

    it.each([
      ['too few digits', '12-34'],
      ['letters', '555-CALL-NOW'],
      ['Excel scientific notation', '4.91521E+11'],
      ['a + in the middle', '555+0102030'],
      ['over 32 characters', '+1 555 010 2030 555 010 2030 555 0'],
      ['punctuation only', '(((-)))'],
    ])('refuses %s', (_, given) => {
      expect(errorsOf({ phone: given })).toMatchObject([{ column: 'phone', code: 'phone_invalid' }]);
    });
  });

  describe('website', () => {
    it.each([
      ['acme.com', 'https://acme.com/'],
      ['www.acme.com/about?x=1', 'https://www.acme.com/about?x=1'],
      ['http://Acme.COM', 'http://acme.com/'],
      ['HTTPS://acme.com/pricing', 'https://acme.com/pricing'],
      ['bücher.example', 'https://xn--bcher-kva.example/'],
    ])('accepts %j as %j', (given, want) => {
      expect(leadOf({ website: given }).website).toBe(want);
    });

    it.each([
      ['another scheme', 'ftp://acme.com'],
      ['a javascript: URL', 'javascript:alert(1)'],
      ['credentials', 'https://user:pass@acme.com'],
      ['a host without a dot', 'https://intranet'],
      ['an IP address', 'http://10.0.0.1/'],
      ['words', 'our website'],
    ])('refuses %s', (_, given) => {
      expect(errorsOf({ website: given })).toMatchObject([{ column: 'website', code: 'website_invalid' }]);
    });
  });

  describe('linkedin_url', () => {
    it.each([
      ['https://www.linkedin.com/in/janedoe', 'https://www.linkedin.com/in/janedoe'],
      ['http://linkedin.com/in/janedoe', 'https://linkedin.com/in/janedoe'],
      ['de.linkedin.com/in/janedoe/', 'https://de.linkedin.com/in/janedoe/'],
      ['https://WWW.LinkedIn.com/company/acme', 'https://www.linkedin.com/company/acme'],
    ])('accepts %j as %j', (given, want) => {
      expect(leadOf({ linkedin_url: given }).linkedin_url).toBe(want);
    });

    it.each([
      ['another site', 'https://twitter.com/janedoe'],
      ['a look-alike domain', 'https://evil-linkedin.com/in/janedoe'],
      ['linkedin.com as a subdomain of another site', 'https://linkedin.com.evil.example/in/janedoe'],
      ['linkedin.com in the credentials', 'https://linkedin.com@evil.example/in/janedoe'],
      ['a profile name only', 'janedoe'],
    ])('refuses %s', (_, given) => {
      expect(errorsOf({ linkedin_url: given })).toMatchObject([
        { column: 'linkedin_url', code: 'linkedin_url_invalid' },
      ]);
    });
  });

  describe('timezone', () => {
    it.each([
      ['Europe/Berlin', 'Europe/Berlin'],
      ['america/new_york', 'America/New_York'],
      ['AMERICA/ARGENTINA/BUENOS_AIRES', 'America/Buenos_Aires'],
      ['UTC', 'UTC'],
      ['utc', 'UTC'],
      ['Etc/UTC', 'UTC'],
      ['US/Eastern', 'America/New_York'],
    ])('accepts %j as %j', (given, want) => {
      expect(leadOf({ timezone: given }).timezone).toBe(want);
    });

    it.each([['Mars/Olympus_Mons'], ['EST'], ['CET+1'], ['+01:00'], ['Berlin']])('refuses %j', (given) => {
      expect(errorsOf({ timezone: given })).toMatchObject([{ column: 'timezone', code: 'timezone_invalid' }]);
    });
  });

  describe('tags', () => {
    it('trims, drops empty tags and deduplicates case-insensitively keeping the first spelling', () => {
      expect(leadOf({ tags: [' Webinar ', '', '  ', 'webinar', 'VIP', 'WEBINAR'] }).tags).toEqual(['Webinar', 'VIP']);
    });

    it('accepts 20 distinct tags and refuses 21', () => {
      const tags = Array.from({ length: 21 }, (_, i) => `tag-${i}`);
      expect(leadOf({ tags: tags.slice(0, 20) }).tags).toHaveLength(20);
      expect(errorsOf({ tags })).toMatchObject([{ column: 'tags', code: 'tags_too_many' }]);
    });

    it('counts tags after deduplication', () => {
      const tags = Array.from({ length: 40 }, (_, i) => (i % 2 ? `Tag-${i >> 1}` : `tag-${i >> 1}`));
      expect(leadOf({ tags }).tags).toHaveLength(20);
    });

    it('refuses a tag over 50 characters and a tag that is not a string', () => {
      expect(errorsOf({ tags: ['x'.repeat(51), 7, 'ok', 'x'.repeat(50)] }).map((e) => [e.code, e.value])).toEqual([
        ['tag_invalid', 'x'.repeat(51)],
        ['tag_invalid', '7'],
      ]);
    });
  });

  describe('custom_fields', () => {
    it('keeps strings, finite numbers, booleans and null, and skips undefined', () => {
      expect(
        leadOf({ custom_fields: { plan: 'pro', seats: 3.5, active: true, note: '', gone: undefined } }).custom_fields,
      ).toEqual({
        plan: 'pro',
        seats: 3.5,
        active: true,
        note: null,
      });
    });

    it.each([
      ['a key starting with a digit', { '1plan': 'x' }, 'custom_field_key_invalid'],
      ['a key with a dash', { 'plan-name': 'x' }, 'custom_field_key_invalid'],
      ['a key of 65 characters', { [`k${'x'.repeat(64)}`]: 'x' }, 'custom_field_key_invalid'],
      ['a __proto__ key', JSON.parse('{"__proto__": "x"}'), 'custom_field_key_invalid'],
      ['an object value', { plan: { tier: 'pro' } }, 'custom_field_value_invalid'],
      ['an array value', { plan: ['pro'] }, 'custom_field_value_invalid'],
      ['an infinite number', { seats: Infinity }, 'custom_field_value_invalid'],
      ['NaN', { seats: Number.NaN }, 'custom_field_value_invalid'],
      ['a string over 1000 characters', { note: 'x'.repeat(1001) }, 'too_long'],
    ])('refuses %s', (_, customFields, code) => {
      expect(errorsOf({ custom_fields: customFields })).toMatchObject([{ code }]);
    });

    it('names the custom field in the error column', () => {
      expect(errorsOf({ custom_fields: { seats: Infinity } })[0]).toMatchObject({
        column: 'custom_fields.seats',
        value: 'Infinity',
      });
    });

    it('accepts a 64-character key, a 1000-character value and 50 keys, and refuses 51 keys', () => {
      const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}`, i]));
      expect(Object.keys(leadOf({ custom_fields: fifty }).custom_fields)).toHaveLength(50);
      expect(leadOf({ custom_fields: { [`k${'x'.repeat(63)}`]: 'x'.repeat(1000) } }).custom_fields).toBeDefined();
      expect(errorsOf({ custom_fields: { ...fifty, f50: 50 } })).toMatchObject([
        { column: 'custom_fields', code: 'custom_fields_too_many' },
      ]);
    });

    it.each([
      ['a string', 'plan=pro'],
      ['an array', ['pro']],
      ['a number', 1],
    ])('refuses %s instead of an object', (_, given) => {
      expect(errorsOf({ custom_fields: given })).toMatchObject([{ column: 'custom_fields', code: 'invalid_type' }]);
    });
  });
});

describe('normalizeLead with characters that cannot be stored', () => {
  const nul = 'Bad\u0000Name';
  const lone = 'Bad\uD800Name';
  it.each<[string, { given: Record<string, unknown>; column: string }]>([
    ['a NUL in first_name', { given: { first_name: nul }, column: 'first_name' }],
    ['a lone high surrogate in company', { given: { company: lone }, column: 'company' }],
    ['a lone low surrogate in title', { given: { title: 'x\uDC00' }, column: 'title' }],
    ['a NUL in the email', { given: { email: 'ja\u0000ne@acme.com' }, column: 'email' }],
    ['a lone surrogate in the email', { given: { email: 'jane@acme.com\uD83D' }, column: 'email' }],
    ['a NUL in a tag', { given: { tags: ['ok', nul] }, column: 'tags' }],
    [
      'a lone surrogate in a custom field value',
      { given: { custom_fields: { plan: lone } }, column: 'custom_fields.plan' },
    ],
    ['a NUL in a phone (before its own check)', { given: { phone: '+1 555\u0000 0102' }, column: 'phone' }],
  ])('reports %s as invalid_character naming the field', (_name, { given, column }) => {
    const errors = errorsOf(given);
    expect(errors).toEqual([expect.objectContaining({ column, code: 'invalid_character' })]);
    expect(errors[0].value).not.toMatch(/\0|[\uD800-\uDFFF]/);
  });

  it('accepts paired surrogates (emoji) and other control characters', () => {
    expect(leadOf({ first_name: 'Zoë 🎉', company: 'Tab\there' })).toMatchObject({
      first_name: 'Zoë 🎉',
      company: 'Tab\there',
    });
  });

  it('shows an unknown key holding a NUL with U+FFFD in its error', () => {
    expect(errorsOf({ ['ni\u0000ck']: 'x' })).toEqual([
      expect.objectContaining({ column: 'ni\uFFFDck', code: 'unknown_field' }),
    ]);
  });
});
