// Rows in PostgreSQL's COPY text format written into a growing byte buffer, a row at a time: an
// import on PostgreSQL sends each batch this way (COPY … FROM STDIN into a staging table), so the batch
// is never a JavaScript string. Held as strings until a statement was answered, a batch's values were
// promoted to the old generation: most of what a million-row import left there.

import { ByteBuffer } from './byte-buffer.ts';

/** Characters COPY text reads specially inside a field, with their escapes. */
const SPECIAL = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

export class CopyTextWriter {
  private readonly out: ByteBuffer;
  /** The current row as text: a row is written in one go (13 UTF-8 writes a row cost four times as much). */
  private row = '';
  private fields = 0;

  constructor(initialBytes = 64 * 1024) {
    this.out = new ByteBuffer(initialBytes);
  }

  /** Bytes written so far (rows ended). */
  get bytes(): number {
    return this.out.length;
  }

  /** Appends a field to the current row: \N for null, else the text with \, tab, newline and CR escaped. */
  field(value: string | null): void {
    const text = value === null ? '\\N' : SPECIAL.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]) : value;
    this.row = this.fields++ > 0 ? `${this.row}\t${text}` : text;
  }

  /** An integer field (no escaping needed). */
  integer(value: number): void {
    this.field(String(value));
  }

  /** Ends the current row. */
  endRow(): void {
    const line = `${this.row}\n`;
    // A UTF-16 unit is at most three bytes of UTF-8.
    this.out.reserve(line.length * 3);
    this.out.text(line);
    this.row = '';
    this.fields = 0;
  }

  /** The rows ended so far, as a view of the buffer (valid until the next write). */
  view(): Buffer {
    return this.out.view();
  }
}
