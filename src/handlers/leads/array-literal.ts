// A PostgreSQL text[] literal written into a growing byte buffer, one element at a time. An import
// encodes each column of a batch this way: the values are copied out at once, so no string of the
// batch survives the young generation (kept as strings in arrays until the batch was written, they
// were promoted, and the old generation grew by a few hundred MB over a million-row import).
import { ByteBuffer } from './byte-buffer.ts';

const QUOTE = 0x22;
const COMMA = 0x2c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const NULL_ELEMENT = Buffer.from('NULL');

export class ArrayLiteralWriter {
  private readonly out: ByteBuffer;
  private count = 0;

  constructor(initialBytes = 16 * 1024) {
    this.out = new ByteBuffer(initialBytes);
    this.out.byte(OPEN);
  }

  get size(): number {
    return this.count;
  }

  /** Bytes of the literal so far. */
  get bytes(): number {
    return this.out.length + 1;
  }

  /** Appends NULL, or the value quoted with backslash and double quote escaped. */
  push(value: string | null): void {
    this.out.reserve(value === null ? 5 : value.length * 6 + 3);
    if (this.count++ > 0) this.out.byte(COMMA);
    if (value === null) {
      this.out.bytes(NULL_ELEMENT);
      return;
    }
    this.out.byte(QUOTE);
    // indexOf rather than a regular expression: this runs for every value of an import.
    this.out.text(value.indexOf('"') < 0 && value.indexOf('\\') < 0 ? value : value.replace(/[\\"]/g, '\\$&'));
    this.out.byte(QUOTE);
  }

  /** The literal, e.g. {"a",NULL,"b\"c"}. */
  toString(): string {
    return this.out.toString(CLOSE);
  }
}
