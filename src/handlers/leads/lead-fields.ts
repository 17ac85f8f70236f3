// The fields a lead import row may carry, and how each one is normalised and validated.
//
// Rules (every error of a row is reported, not only the first):
// - Unknown top-level keys are an `unknown_field` error naming the key.
// - email is required: see normalizeEmail (lead-email.ts).
// - Text fields are trimmed; empty (or null/absent) becomes null; anything but a string is `invalid_type`.
//   first_name and last_name hold at most 100 characters, every other text field at most 200 (`too_long`).
// - phone: 5–32 characters of digits, spaces and + ( ) . - (a + only first), at least 5 digits, optionally
//   followed by an extension ("x 12", "ext. 12", "extension 12", "#12"); runs of spaces become one. Not
//   reformatted: without a country we cannot know the international form.
// - website: an http or https URL; a value without a scheme ("acme.com/about") gets https://. Stored as
//   the serialised URL (lower-case host, punycode, "/" path when empty), without credentials.
// - linkedin_url: a URL on linkedin.com or any subdomain; no scheme or http:// become https://.
// - timezone: an IANA name (Area/Location, or UTC) that Intl knows, stored as Intl's canonical ID in its
//   canonical case ("europe/berlin" -> "Europe/Berlin", "US/Eastern" -> "America/New_York"). Abbreviations
//   such as EST are refused: they are ambiguous. ICU keeps a few old names as canonical, so
//   "Asia/Kolkata" is stored as "Asia/Calcutta" (Node 20 and 22 alike).
// - tags: an array of strings; each trimmed, empty ones dropped, 1–50 characters; deduplicated
//   case-insensitively keeping the first spelling; at most 20. In CSV, one cell separated by ";".
// - custom_fields: an object of at most 50 keys matching ^[a-zA-Z][a-zA-Z0-9_]{0,63}$; values are a
//   string (trimmed, empty -> null, at most 1000 characters), a finite number, a boolean or null.
// - No string (email, text fields, tags, custom field values) may hold a NUL or an unpaired UTF-16
//   surrogate (`invalid_character`): PostgreSQL stores neither in text or jsonb, and a row holding one
//   failed its whole batch. Error rows show such characters as U+FFFD, so that they can be stored.
// CSV rows go through planColumns (once per file) and applyColumnMap (per row) first: see lead-columns.ts.
import { normalizeEmail } from './lead-email.ts';
import { checkLinkedinUrl, checkPhone, checkTimezone, checkWebsite, type Check } from './lead-text-checks.ts';

export const LEAD_TEXT_FIELDS = [
  'first_name',
  'last_name',
  'company',
  'title',
  'phone',
  'website',
  'linkedin_url',
  'timezone',
] as const;
export const LEAD_FIELDS = ['email', ...LEAD_TEXT_FIELDS, 'tags', 'custom_fields'] as const;
export type LeadTextField = (typeof LEAD_TEXT_FIELDS)[number];
export type LeadField = (typeof LEAD_FIELDS)[number];

export type CustomFieldValue = string | number | boolean | null;

export type NormalizedLead = { email: string; tags: string[]; custom_fields: Record<string, CustomFieldValue> } & {
  [K in LeadTextField]: string | null;
};

export interface FieldError {
  /** The lead field (`custom_fields.<key>` for a custom field), or the CSV header / JSON key at fault. */
  column: string;
  /** The offending value as text, cut to 200 characters. */
  value: string;
  code: string;
  message: string;
}

export const CUSTOM_FIELD_KEY = /^[a-zA-Z][a-zA-Z0-9_]{0,63}$/;
export const LIMITS = { name: 100, text: 200, tags: 20, tag: 50, customFields: 50, customValue: 1000 } as const;

const TEXT_RULES: Record<LeadTextField, { max: number; check?: Check }> = {
  first_name: { max: LIMITS.name },
  last_name: { max: LIMITS.name },
  company: { max: LIMITS.text },
  title: { max: LIMITS.text },
  phone: { max: LIMITS.text, check: checkPhone },
  website: { max: LIMITS.text, check: checkWebsite },
  linkedin_url: { max: LIMITS.text, check: checkLinkedinUrl },
  timezone: { max: LIMITS.text, check: checkTimezone },
};

const LEAD_FIELD_SET: ReadonlySet<string> = new Set(LEAD_FIELDS);

/** A NUL, or a surrogate without its pair (code units, so no `u` flag). */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A NUL or an unpaired surrogate: neither can be stored in PostgreSQL text (nor sent as UTF-8). */
export function hasUnstorableCharacter(value: string): boolean {
  return UNSTORABLE.test(value);
}

/** The text with every NUL and unpaired surrogate replaced by U+FFFD, for messages and error rows. */
export function storable(value: string): string {
  return UNSTORABLE.test(value) ? value.replace(new RegExp(UNSTORABLE.source, 'g'), '\uFFFD') : value;
}

const unstorable = (errors: FieldError[], column: string, value: string): null =>
  fail(
    errors,
    column,
    value,
    'invalid_character',
    `${column} holds a NUL or an unpaired surrogate, which cannot be stored`,
  );

export function normalizeLead(input: Record<string, unknown>): { lead: NormalizedLead } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  for (const key in input) {
    if (Object.hasOwn(input, key) && !LEAD_FIELD_SET.has(key))
      fail(errors, key, input[key], 'unknown_field', `${key} is not a lead field`);
  }
  let email = '';
  if (input.email != null && typeof input.email !== 'string')
    fail(errors, 'email', input.email, 'invalid_type', 'email must be a string');
  else if (typeof input.email === 'string' && hasUnstorableCharacter(input.email))
    unstorable(errors, 'email', input.email);
  else {
    const result = normalizeEmail((input.email as string | undefined) ?? '');
    if (result.ok) email = result.email;
    else fail(errors, 'email', input.email ?? '', result.code, result.message);
  }
  const lead: NormalizedLead = {
    email,
    first_name: normalizeText('first_name', input.first_name, errors),
    last_name: normalizeText('last_name', input.last_name, errors),
    company: normalizeText('company', input.company, errors),
    title: normalizeText('title', input.title, errors),
    phone: normalizeText('phone', input.phone, errors),
    website: normalizeText('website', input.website, errors),
    linkedin_url: normalizeText('linkedin_url', input.linkedin_url, errors),
    timezone: normalizeText('timezone', input.timezone, errors),
    tags: normalizeTags(input.tags, errors),
    custom_fields: normalizeCustomFields(input.custom_fields, errors),
  };
  if (errors.length > 0) return { errors };
  return { lead };
}

/** Records an error of the row; returns null for the field's value. Not a closure: this runs for every row. */
function fail(errors: FieldError[], column: string, value: unknown, code: string, message: string): null {
  errors.push({ column: storable(column), value: describe(value), code, message: storable(message) });
  return null;
}

function normalizeText(field: LeadTextField, value: unknown, errors: FieldError[]): string | null {
  if (value == null) return null;
  if (typeof value !== 'string') return fail(errors, field, value, 'invalid_type', `${field} must be a string`);
  if (hasUnstorableCharacter(value)) return unstorable(errors, field, value);
  const trimmed = value.trim();
  if (trimmed === '') return null;
  const rule = TEXT_RULES[field];
  if (trimmed.length > rule.max)
    return fail(errors, field, value, 'too_long', `${field} is longer than ${rule.max} characters`);
  if (!rule.check) return trimmed;
  const checked = rule.check(trimmed);
  if ('code' in checked) return fail(errors, field, value, checked.code, checked.message);
  if (checked.value.length > rule.max)
    return fail(errors, field, value, 'too_long', `${field} is longer than ${rule.max} characters`);
  return checked.value;
}

function normalizeTags(value: unknown, errors: FieldError[]): string[] {
  if (value == null) return [];
  if (!Array.isArray(value)) {
    fail(errors, 'tags', value, 'invalid_type', 'tags must be an array of strings');
    return [];
  }
  const tags = new Map<string, string>();
  for (const item of value) {
    if (typeof item !== 'string') {
      fail(errors, 'tags', item, 'tag_invalid', 'a tag must be a string');
      continue;
    }
    if (hasUnstorableCharacter(item)) {
      unstorable(errors, 'tags', item);
      continue;
    }
    const tag = item.trim();
    if (tag.length > LIMITS.tag)
      fail(errors, 'tags', item, 'tag_invalid', `a tag is longer than ${LIMITS.tag} characters`);
    else if (tag !== '' && !tags.has(tag.toLowerCase())) tags.set(tag.toLowerCase(), tag);
  }
  if (tags.size > LIMITS.tags)
    fail(errors, 'tags', [...tags.values()], 'tags_too_many', `a lead has at most ${LIMITS.tags} tags`);
  return [...tags.values()];
}

function normalizeCustomFields(value: unknown, errors: FieldError[]): Record<string, CustomFieldValue> {
  if (value == null) return {};
  if (Object.prototype.toString.call(value) !== '[object Object]') {
    fail(errors, 'custom_fields', value, 'invalid_type', 'custom_fields must be an object');
    return {};
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length > LIMITS.customFields)
    fail(
      errors,
      'custom_fields',
      `${entries.length} keys`,
      'custom_fields_too_many',
      `a lead has at most ${LIMITS.customFields} custom fields`,
    );
  const out: [string, CustomFieldValue][] = [];
  for (const [key, raw] of entries) {
    const column = `custom_fields.${key}`;
    if (!CUSTOM_FIELD_KEY.test(key))
      fail(
        errors,
        column,
        key,
        'custom_field_key_invalid',
        'a custom field key starts with a letter and holds up to 64 letters, digits and _',
      );
    else if (typeof raw === 'string' && hasUnstorableCharacter(raw)) unstorable(errors, column, raw);
    else if (typeof raw === 'string' && raw.trim().length > LIMITS.customValue)
      fail(errors, column, raw, 'too_long', `a custom field value is longer than ${LIMITS.customValue} characters`);
    else if (typeof raw === 'string') out.push([key, raw.trim() === '' ? null : raw.trim()]);
    else if (raw === null || typeof raw === 'boolean' || (typeof raw === 'number' && Number.isFinite(raw)))
      out.push([key, raw]);
    else
      fail(
        errors,
        column,
        raw,
        'custom_field_value_invalid',
        'a custom field value is a string, a finite number, a boolean or null',
      );
  }
  return Object.fromEntries(out);
}

function describe(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value === null || typeof value !== 'object') text = String(value);
  else {
    try {
      text = JSON.stringify(value);
    } catch {
      text = String(value);
    }
  }
  return storable(text.length > 200 ? `${text.slice(0, 199)}…` : text);
}
