// Rows in PostgreSQL's COPY text format written into a growing byte buffer, one field at a time: an
// import on PostgreSQL sends each batch this way (COPY … FROM STDIN into a staging table), so the batch
// is never a JavaScript string. Held as strings until a statement was answered, a batch's values were
// promoted to the old generation: most of what a million-row import left there.

import { ByteBuffer } from './byte-buffer.ts';

const TAB = 0x09;
const NEWLINE = 0x0a;
const NULL_FIELD = Buffer.from('\\N');
/** Characters COPY text reads specially inside a field, with their escapes. */
const SPECIAL = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

export class CopyTextWriter {
  private readonly out: ByteBuffer;
  private fields = 0;

  constructor(initialBytes = 64 * 1024) {
    this.out = new ByteBuffer(initialBytes);
  }

  /** Bytes written so far. */
  get bytes(): number {
    return this.out.length;
  }

  /** Appends a field to the current row: \N for null, else the text with \, tab, newline and CR escaped. */
  field(value: string | null): void {
    this.out.reserve(value === null ? 3 : value.length * 6 + 1);
    if (this.fields++ > 0) this.out.byte(TAB);
    if (value === null) this.out.bytes(NULL_FIELD);
    else this.out.text(SPECIAL.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]) : value);
  }

  /** An integer field (no escaping needed). */
  integer(value: number): void {
    this.field(String(value));
  }

  /** Ends the current row. */
  endRow(): void {
    this.out.reserve(1);
    this.out.byte(NEWLINE);
    this.fields = 0;
  }

  /** The rows written, as a view of the buffer (valid until the next write). */
  view(): Buffer {
    return this.out.view();
  }
}
