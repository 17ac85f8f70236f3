// Writes leads as CSV (RFC 4180, comma, CRLF) that is safe to open in a spreadsheet: text that a
// spreadsheet would run as a formula is defused with a leading apostrophe.
import { TAG_SEPARATOR } from './lead-columns.ts';

export const LEAD_EXPORT_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'company',
  'title',
  'phone',
  'website',
  'linkedin_url',
  'timezone',
  'tags',
  'status',
  'stage',
  'created_at',
  'updated_at',
] as const;

/** A stored lead as the export reads it; columns it lacks export as empty cells. */
export type ExportableLead = { [K in (typeof LEAD_EXPORT_COLUMNS)[number]]?: unknown } & {
  custom_fields?: Record<string, unknown> | null;
};

/** Text starting with one of these is a formula (or DDE payload) to Excel, LibreOffice or Google Sheets. */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell. null and undefined are empty; finite numbers, bigints and booleans are written as they are
 * (a negative number stays a number); a Date is its ISO string; an array is its items joined by the
 * import's tag separator; other objects are JSON. Text starting with = + - @ tab or CR gets a leading
 * apostrophe first; then a cell holding a quote, comma, CR or LF is quoted with quotes doubled.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  const text = FORMULA_START.test(toText(value)) ? `'${toText(value)}` : toText(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  if (Array.isArray(value)) return value.map((item) => (item == null ? '' : String(item))).join(TAG_SEPARATOR);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** One CRLF-terminated line. */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** The export's header: the fixed columns, then `custom.<key>` per custom field key, in the given order. */
export function leadExportHeader(customFieldKeys: readonly string[]): string[] {
  return [...LEAD_EXPORT_COLUMNS, ...customFieldKeys.map((key) => `custom.${key}`)];
}

/** The cells of one lead in leadExportHeader order. */
export function leadExportRow(lead: ExportableLead, customFieldKeys: readonly string[]): unknown[] {
  return [
    ...LEAD_EXPORT_COLUMNS.map((column) => lead[column]),
    ...customFieldKeys.map((key) => customValue(lead.custom_fields, key)),
  ];
}

function customValue(fields: Record<string, unknown> | null | undefined, key: string): unknown {
  return fields && Object.hasOwn(fields, key) ? fields[key] : null;
}

export interface LeadsCsvOptions {
  /** Start with a UTF-8 byte order mark, without which Excel reads UTF-8 as a legacy code page (default false). */
  bom?: boolean;
}

/** The header line, then one line per row, pulled one row at a time. */
export async function* leadsCsv(
  header: readonly string[],
  rows: AsyncIterable<readonly unknown[]>,
  options: LeadsCsvOptions = {},
): AsyncGenerator<string> {
  yield `${options.bom ? '\ufeff' : ''}${csvLine(header)}`;
  for await (const row of rows) yield csvLine(row);
}
