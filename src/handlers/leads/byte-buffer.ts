// A growing byte buffer that an import's batch is encoded into (ArrayLiteralWriter, CopyTextWriter):
// strings go in as UTF-8 the moment they are written, so none of them outlives the young generation.

export class ByteBuffer {
  private buffer: Buffer;
  private used = 0;

  constructor(initialBytes: number) {
    this.buffer = Buffer.allocUnsafe(Math.max(initialBytes, 16));
  }

  /** Bytes written so far. */
  get length(): number {
    return this.used;
  }

  /**
   * Room for `bytes` more, and one beyond them for toString's suffix. A string of n UTF-16 units needs
   * at most 3n bytes; a caller that escapes characters reserves for the escapes too.
   */
  reserve(bytes: number): void {
    if (this.used + bytes + 1 <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.used + bytes + 1));
    this.buffer.copy(grown, 0, 0, this.used);
    this.buffer = grown;
  }

  /** The writes below assume the room was reserved. */
  byte(value: number): void {
    this.buffer[this.used++] = value;
  }

  bytes(value: Buffer): void {
    this.used += value.copy(this.buffer, this.used);
  }

  text(value: string): void {
    this.used += this.buffer.write(value, this.used, 'utf8');
  }

  /** What was written (a view, valid until the next write). */
  view(): Buffer {
    return this.buffer.subarray(0, this.used);
  }

  /** What was written as a string, with `suffix` after it (not kept: later writes go where it stood). */
  toString(suffix?: number): string {
    if (suffix === undefined) return this.buffer.toString('utf8', 0, this.used);
    this.reserve(0);
    this.buffer[this.used] = suffix;
    return this.buffer.toString('utf8', 0, this.used + 1);
  }
}
