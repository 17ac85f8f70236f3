// The CSV columns of a lead import: a plan is made once from the header (configuration errors surface
// before any row is read) and then applied to every row, giving normalizeLead (lead-fields.ts) its input.
import { CUSTOM_FIELD_KEY, LEAD_FIELDS, LIMITS, type FieldError, type LeadField } from './lead-fields.ts';

/** Where a CSV column goes: a lead field, or one key of custom_fields. */
export type ColumnTarget = { field: MappableField } | { customField: string };
type MappableField = Exclude<LeadField, 'custom_fields'>;

export interface ColumnPlan {
  /** The mapped columns, in header order. */
  readonly columns: ReadonlyArray<{ header: string; target: ColumnTarget }>;
  /** Non-empty headers that go nowhere and were not mapped to `ignore`: to tell the user once per import. */
  readonly unmappedHeaders: readonly string[];
}

/** In CSV, the tags of a lead share one cell, separated by ";" (a tag may then hold a comma: "Acme, Inc."). */
export const TAG_SEPARATOR = ';';

/**
 * Header aliases per field, best first, compared after lower-casing and dropping spaces, dashes and
 * underscores ("E-mail Address" -> "emailaddress"). When several headers alias one field (Phone and
 * Mobile), the best alias wins and the others are unmapped.
 */
const HEADER_ALIASES: Record<MappableField, string[]> = {
  email: ['email', 'emailaddress', 'workemail', 'businessemail', 'mail'],
  first_name: ['firstname', 'givenname', 'forename', 'first'],
  last_name: ['lastname', 'surname', 'familyname', 'last'],
  company: ['company', 'companyname', 'organization', 'organisation', 'organizationname', 'organisationname'],
  title: ['title', 'jobtitle', 'position'],
  phone: [
    'phone',
    'phonenumber',
    'workphone',
    'mobile',
    'mobilephone',
    'mobilenumber',
    'cellphone',
    'telephone',
    'tel',
  ],
  website: ['website', 'websiteurl', 'companywebsite', 'url', 'web', 'homepage'],
  linkedin_url: ['linkedinurl', 'linkedin', 'linkedinprofile', 'linkedinprofileurl'],
  timezone: ['timezone', 'tz'],
  tags: ['tags', 'tag', 'labels'],
};
/** "custom.plan" (the export's spelling) and "custom_fields.plan" headers go to custom field "plan". */
const CUSTOM_HEADER = /^custom(?:_fields)?\.(.+)$/i;

type Candidate = { header: string; target: ColumnTarget; rank: number };

/**
 * `columnMap` maps a CSV header (exact, else case-insensitive) to a lead field, `custom_fields.<key>` or
 * `ignore`; other headers are mapped by alias. Errors: `unknown_column` (a columnMap key that names no
 * header), `invalid_mapping`, `custom_field_key_invalid`, `duplicate_mapping` (two columns mapped to one
 * target), `custom_fields_too_many`, `email_column_missing`.
 */
export function planColumns(
  header: readonly string[],
  columnMap: Record<string, string> = {},
): { plan: ColumnPlan } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const explicit = new Map<string, ColumnTarget | 'ignore'>();
  for (const [key, target] of Object.entries(columnMap)) {
    const name =
      header.find((h) => h === key.trim()) ??
      header.find((h) => h !== '' && h.toLowerCase() === key.trim().toLowerCase());
    const parsed = parseTarget(target);
    if (name === undefined)
      errors.push({ column: key, value: target, code: 'unknown_column', message: `the file has no column ${key}` });
    else if (typeof parsed !== 'string' && 'code' in parsed) errors.push({ column: key, value: target, ...parsed });
    else explicit.set(name, parsed);
  }
  const chosen = new Map<string, Candidate>();
  for (const name of header) {
    const target = explicit.get(name);
    if (target === undefined || target === 'ignore') continue;
    if (chosen.has(targetKey(target))) {
      errors.push({
        column: name,
        value: targetKey(target),
        code: 'duplicate_mapping',
        message: `two columns are mapped to ${targetKey(target)}`,
      });
    }
    chosen.set(targetKey(target), { header: name, target, rank: -1 });
  }
  for (const candidate of defaultCandidates(header.filter((name) => name !== '' && !explicit.has(name)))) {
    const best = chosen.get(targetKey(candidate.target));
    if (!best || candidate.rank < best.rank) chosen.set(targetKey(candidate.target), candidate);
  }
  const custom = [...chosen.values()].filter((c) => 'customField' in c.target).length;
  if (custom > LIMITS.customFields)
    errors.push({
      column: 'custom_fields',
      value: `${custom} columns`,
      code: 'custom_fields_too_many',
      message: `a lead has at most ${LIMITS.customFields} custom fields`,
    });
  if (!chosen.has('email'))
    errors.push({
      column: 'email',
      value: '',
      code: 'email_column_missing',
      message: 'no column holds the email: name one Email or map one to email',
    });
  if (errors.length > 0) return { errors };
  const mapped = new Map([...chosen.values()].map((c) => [c.header, c.target]));
  return {
    plan: {
      columns: header.filter((name) => mapped.has(name)).map((name) => ({ header: name, target: mapped.get(name)! })),
      unmappedHeaders: header.filter((name) => name !== '' && !mapped.has(name) && !explicit.has(name)),
    },
  };
}

function defaultCandidates(headers: string[]): Candidate[] {
  return headers.flatMap((header): Candidate[] => {
    const custom = CUSTOM_HEADER.exec(header)?.[1];
    if (custom !== undefined)
      return CUSTOM_FIELD_KEY.test(custom) ? [{ header, target: { customField: custom }, rank: 0 }] : [];
    const key = header.toLowerCase().replace(/[\s_-]+/g, '');
    for (const [field, aliases] of Object.entries(HEADER_ALIASES)) {
      const rank = aliases.indexOf(key);
      if (rank >= 0) return [{ header, target: { field: field as MappableField }, rank }];
    }
    return [];
  });
}

function parseTarget(target: string): ColumnTarget | 'ignore' | { code: string; message: string } {
  const name = target.trim();
  if (name === 'ignore') return 'ignore';
  if (name !== 'custom_fields' && (LEAD_FIELDS as readonly string[]).includes(name))
    return { field: name as MappableField };
  const key = /^custom_fields\.(.*)$/.exec(name)?.[1];
  if (key === undefined)
    return { code: 'invalid_mapping', message: `${target} is not a lead field, custom_fields.<key> or ignore` };
  if (!CUSTOM_FIELD_KEY.test(key))
    return {
      code: 'custom_field_key_invalid',
      message: 'a custom field key starts with a letter and holds up to 64 letters, digits and _',
    };
  return { customField: key };
}

function targetKey(target: ColumnTarget): string {
  return 'field' in target ? target.field : `custom_fields.${target.customField}`;
}

/**
 * Turns one CSV record into normalizeLead input: cells as strings, tags split on TAG_SEPARATOR, and the
 * apostrophe our export puts before a leading = + - @ tab or CR removed, so exported files import again.
 */
export function applyColumnMap(record: Record<string, string>, plan: ColumnPlan): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  let custom: Record<string, string> | undefined;
  for (const { header, target } of plan.columns) {
    if (!Object.hasOwn(record, header)) continue;
    custom = setCell(input, custom, target, record[header]);
  }
  if (custom) input.custom_fields = custom;
  return input;
}

/** A plan's columns by their position in the header, for applyColumnMapToFields. */
export type IndexedColumns = ReadonlyArray<{ index: number; target: ColumnTarget }>;

export function indexColumns(plan: ColumnPlan, header: readonly string[]): IndexedColumns {
  return plan.columns
    .filter(({ header: name }) => name !== '')
    .map(({ header: name, target }) => ({ index: header.indexOf(name), target }));
}

/** applyColumnMap for a row given as its fields in header order (no record object per row). */
export function applyColumnMapToFields(fields: readonly string[], columns: IndexedColumns): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  let custom: Record<string, string> | undefined;
  for (const { index, target } of columns) {
    if (index < fields.length) custom = setCell(input, custom, target, fields[index]);
  }
  if (custom) input.custom_fields = custom;
  return input;
}

function setCell(
  input: Record<string, unknown>,
  custom: Record<string, string> | undefined,
  target: ColumnTarget,
  cell: string,
): Record<string, string> | undefined {
  const value = cell.length > 1 && cell[0] === "'" && /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
  if (!('customField' in target)) {
    input[target.field] = target.field === 'tags' ? splitTags(value) : value;
    return custom;
  }
  const fields = custom ?? {};
  // Keys match CUSTOM_FIELD_KEY (a letter first), so never "__proto__".
  fields[target.customField] = value;
  return fields;
}

export function splitTags(cell: string): string[] {
  const tags: string[] = [];
  for (const part of cell.split(TAG_SEPARATOR)) {
    const tag = part.trim();
    if (tag !== '') tags.push(tag);
  }
  return tags;
}
