// A PostgreSQL text[] literal written into a growing byte buffer, one element at a time. An import
// encodes each column of a batch this way: the values are copied out at once, so no string of the
// batch survives the young generation (kept as strings in arrays until the batch was written, they
// were promoted, and the old generation grew by a few hundred MB over a million-row import).

const QUOTE = 0x22;
const COMMA = 0x2c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const NULL_ELEMENT = Buffer.from('NULL');

export class ArrayLiteralWriter {
  private buffer: Buffer;
  private length = 1;
  private count = 0;

  constructor(initialBytes = 16 * 1024) {
    this.buffer = Buffer.allocUnsafe(Math.max(initialBytes, 16));
    this.buffer[0] = OPEN;
  }

  get size(): number {
    return this.count;
  }

  /** Bytes of the literal so far. */
  get bytes(): number {
    return this.length + 1;
  }

  /** Appends NULL, or the value quoted with backslash and double quote escaped. */
  push(value: string | null): void {
    this.reserve(value === null ? 5 : value.length * 6 + 3);
    if (this.count++ > 0) this.buffer[this.length++] = COMMA;
    if (value === null) {
      this.length += NULL_ELEMENT.copy(this.buffer, this.length);
      return;
    }
    this.buffer[this.length++] = QUOTE;
    // indexOf rather than a regular expression: this runs for every value of an import.
    const escaped = value.indexOf('"') < 0 && value.indexOf('\\') < 0 ? value : value.replace(/[\\"]/g, '\\$&');
    this.length += this.buffer.write(escaped, this.length, 'utf8');
    this.buffer[this.length++] = QUOTE;
  }

  /** The literal, e.g. {"a",NULL,"b\"c"}. */
  toString(): string {
    this.reserve(1);
    this.buffer[this.length] = CLOSE;
    return this.buffer.toString('utf8', 0, this.length + 1);
  }

  /** Room for `bytes` more (a UTF-16 unit is at most 3 UTF-8 bytes; escaping at most doubles it). */
  private reserve(bytes: number): void {
    if (this.length + bytes + 1 <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes + 1));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}
