// A batch of an import's leads encoded into bytes as it is filled (ArrayLiteralWriter per column, or
// CopyTextWriter), ready for lead-batch-data.ts to write with one statement.
import type { Ids } from '../../deps.ts';
import { ArrayLiteralWriter } from './array-literal.ts';
import { CopyTextWriter } from './copy-text.ts';
import type { LeadFields } from './leads-data.ts';

/** The columns of a batch, in this order: one text[] parameter each, or one field each of a COPY row. */
const BATCH_COLUMNS = 12;

/**
 * How a batch goes to the database. `arrays`: one text[] literal per column, unnested by the insert
 * (any database). `copy`: rows in COPY text format, sent with COPY … FROM STDIN into a staging table
 * that the insert reads: PostgreSQL only, since COPY through the socket kills the embedded PGlite
 * process (stageCopiedBatch refuses any other database).
 */
export type BatchEncoding = 'arrays' | 'copy';

export interface LeadBatchOptions {
  /**
   * Keep each lead's row number by email (the default): `has` finds a second copy of an address and
   * `rows` gives writeLeads its row numbers. Without it (an import run as a job, which needs only
   * counts), the batch keeps no string of its leads: copies of an address go to the database, and
   * writeLeadCounts counts the later ones as skipped. Kept, the addresses outlived the young generation
   * and were a fifth of what a large import promoted to the old one.
   */
  trackRows?: boolean;
  /** Default `arrays`. */
  encoding?: BatchEncoding;
  /** Bytes to reserve per buffer (LeadBatch.bufferBytes of the previous batch), so the buffers need not grow. */
  bufferBytes?: readonly number[];
}

/**
 * A batch of normalised leads for writeLeads, encoded as it is filled: each lead's values are copied at
 * once into bytes (ArrayLiteralWriter per column, or CopyTextWriter), so neither the lead object nor its
 * strings outlive the young generation, and writing the batch
 * costs the JavaScript thread almost nothing (the import fills the next batch while one is written).
 * With trackRows, emails must be unique in a batch: `has` tells the caller, which counts later copies
 * as duplicates.
 */
export class LeadBatch {
  private readonly rowOf: Map<string, number> | undefined;
  private readonly columns: ArrayLiteralWriter[] = [];
  private readonly copy: CopyTextWriter | undefined;
  private count = 0;

  constructor(
    private readonly ids: Ids,
    private readonly addTags: readonly string[],
    options: LeadBatchOptions = {},
  ) {
    this.rowOf = options.trackRows === false ? undefined : new Map();
    const sizes = options.bufferBytes;
    if (options.encoding === 'copy') this.copy = new CopyTextWriter(reserved(sizes?.[0]));
    else this.columns = Array.from({ length: BATCH_COLUMNS }, (_, i) => new ArrayLiteralWriter(reserved(sizes?.[i])));
  }

  get size(): number {
    return this.count;
  }

  get encoding(): BatchEncoding {
    return this.copy ? 'copy' : 'arrays';
  }

  /** Whether the batch may hold an address more than once (rows not tracked). */
  get mayRepeat(): boolean {
    return this.rowOf === undefined;
  }

  /** Whether the batch holds this address already; always false when rows are not tracked. */
  has(email: string): boolean {
    return this.rowOf?.has(email) ?? false;
  }

  add(row: number, lead: LeadFields): void {
    this.count += 1;
    this.rowOf?.set(lead.email, row);
    const tags =
      this.addTags.length === 0 && lead.tags.length < 2 ? lead.tags : [...new Set([...lead.tags, ...this.addTags])];
    // A COPY row starts with its place in the batch: the insert keeps the first copy of an address.
    this.copy?.integer(this.count);
    this.put(0, this.ids.make('lead'));
    this.put(1, lead.email);
    this.put(2, lead.first_name);
    this.put(3, lead.last_name);
    this.put(4, lead.company);
    this.put(5, lead.title);
    this.put(6, lead.phone);
    this.put(7, lead.website);
    this.put(8, lead.linkedin_url);
    this.put(9, lead.timezone);
    // Tags are an array literal inside the column's literal; custom fields JSON text, cast per row.
    // The address's hash (for the suppression list) is computed by the insert itself: sha256 here
    // was a tenth of the thread's time per row.
    this.put(10, tags.length === 0 ? '{}' : arrayLiteral(tags));
    this.put(11, isEmpty(lead.custom_fields) ? '{}' : JSON.stringify(lead.custom_fields));
    this.copy?.endRow();
  }

  private put(column: number, value: string | null): void {
    if (this.copy) this.copy.field(value);
    else this.columns[column].push(value);
  }

  /** One text[] literal per column, in BATCH_COLUMNS order (`arrays` only). */
  literals(): string[] {
    if (this.copy) throw new Error('LeadBatch: not encoded as arrays');
    return this.columns.map((column) => column.toString());
  }

  /** The rows in COPY text format (`copy` only): a view of the batch's buffer. */
  copyText(): Buffer {
    if (!this.copy) throw new Error('LeadBatch: not encoded for COPY');
    return this.copy.view();
  }

  /** Each buffer's encoded size so far, for the next batch's LeadBatchOptions.bufferBytes. */
  bufferBytes(): number[] {
    return this.copy ? [this.copy.bytes] : this.columns.map((column) => column.bytes);
  }

  /** The row numbers of the batch by email (trackRows only). */
  rows(): Map<string, number> {
    if (!this.rowOf) throw new Error('LeadBatch: rows were not tracked');
    return new Map(this.rowOf);
  }
}

/** Room for a column about the size of the previous batch's (an eighth more, so that most batches fit). */
function reserved(previousBytes: number | undefined): number | undefined {
  return previousBytes === undefined ? undefined : Math.ceil(previousBytes * 1.125) + 1024;
}

/** One element of an array literal, quoted with backslash and double quote escaped. */
function element(value: string): string {
  return `"${value.indexOf('"') < 0 && value.indexOf('\\') < 0 ? value : value.replace(/[\\"]/g, '\\$&')}"`;
}

function isEmpty(object: object): boolean {
  for (const key in object) if (Object.hasOwn(object, key)) return false;
  return true;
}

/** A PostgreSQL text[] literal: every element quoted, so no value is read as NULL or split. */
function arrayLiteral(values: readonly string[]): string {
  if (values.length === 0) return '{}';
  let out = '{';
  for (let i = 0; i < values.length; i++) out += `${i > 0 ? ',' : ''}${element(values[i])}`;
  return `${out}}`;
}
