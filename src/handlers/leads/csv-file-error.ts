// The one error that ends reading a CSV file (the file's row errors are values, not this).
export type CsvFileErrorCode =
  | 'empty_file'
  | 'header_too_long'
  | 'duplicate_header'
  | 'malformed_quote'
  | 'record_too_large'
  | 'too_many_rows'
  | 'malformed_csv';

/** A fault that ends the file; `line` is where the offending record (or header) starts. */
export class CsvFileError extends Error {
  constructor(
    readonly code: CsvFileErrorCode,
    readonly line: number,
    message: string,
    options?: ErrorOptions,
  ) {
    super(`line ${line}: ${message}`, options);
    this.name = 'CsvFileError';
  }
}
