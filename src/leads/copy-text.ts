// Rows in PostgreSQL's COPY text format written into a growing byte buffer, one field at a time: an
// import on PostgreSQL sends each batch this way (COPY … FROM STDIN into a staging table), so the batch
// is never a JavaScript string. Held as strings until a statement was answered, a batch's values were
// promoted to the old generation: most of what a million-row import left there.

const TAB = 0x09;
const NEWLINE = 0x0a;
const NULL_FIELD = Buffer.from('\\N');
/** Characters COPY text reads specially inside a field, with their escapes. */
const SPECIAL = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

export class CopyTextWriter {
  private buffer: Buffer;
  private length = 0;
  private fields = 0;

  constructor(initialBytes = 64 * 1024) {
    this.buffer = Buffer.allocUnsafe(Math.max(initialBytes, 16));
  }

  /** Bytes written so far. */
  get bytes(): number {
    return this.length;
  }

  /** Appends a field to the current row: \N for null, else the text with \, tab, newline and CR escaped. */
  field(value: string | null): void {
    this.reserve(value === null ? 3 : value.length * 6 + 1);
    if (this.fields++ > 0) this.buffer[this.length++] = TAB;
    if (value === null) {
      this.length += NULL_FIELD.copy(this.buffer, this.length);
      return;
    }
    const escaped = SPECIAL.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]) : value;
    this.length += this.buffer.write(escaped, this.length, 'utf8');
  }

  /** An integer field (no escaping needed). */
  integer(value: number): void {
    this.field(String(value));
  }

  /** Ends the current row. */
  endRow(): void {
    this.reserve(1);
    this.buffer[this.length++] = NEWLINE;
    this.fields = 0;
  }

  /** The rows written, as a view of the buffer (valid until the next write). */
  view(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  /** Room for `bytes` more (a UTF-16 unit is at most 3 UTF-8 bytes; escaping at most doubles it). */
  private reserve(bytes: number): void {
    if (this.length + bytes + 1 <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes + 1));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}
