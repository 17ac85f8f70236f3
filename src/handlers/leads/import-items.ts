// The rows of a lead import as items for the engine (import-engine.ts): JSON rows, or CSV rows mapped by
// the planned header, numbered from 1, each with its fields or why it could not be read.
import {
  applyColumnMapToFields,
  indexColumns,
  planColumns,
  type ColumnPlan,
  type IndexedColumns,
} from './lead-columns.ts';
import { storable, type FieldError } from './lead-fields.ts';
import { readCsvFieldGroups } from './csv-rows.ts';

/** One row of an import, numbered from 1: the fields to normalise, or why the row could not be read. */
export type ImportItem =
  | { row: number; line?: number; input: Record<string, unknown> }
  | { row: number; line?: number; errors: Array<Omit<FieldError, 'value'> & { value?: string }> };

export async function* jsonItems(rows: AsyncIterable<unknown> | Iterable<unknown>): AsyncGenerator<ImportItem> {
  let row = 0;
  for await (const value of rows as AsyncIterable<unknown>) {
    row += 1;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      yield {
        row,
        errors: [{ column: '', code: 'row_not_object', message: 'each row is a JSON object of lead fields' }],
      };
    } else yield { row, input: value as Record<string, unknown> };
  }
}

/** CSV rows as import items: the header planned once (column_map, aliases), every row mapped with it by position. */
export async function* csvItems(
  source: AsyncIterable<Uint8Array | string>,
  columnMap: Record<string, string> | undefined,
  onPlan?: (plan: ColumnPlan) => void,
): AsyncGenerator<ImportItem> {
  for await (const group of csvItemGroups(source, columnMap, onPlan)) yield* group;
}

/** csvItems in groups, as the parser reads them (readCsvFieldGroups): what the import engine reads. */
export async function* csvItemGroups(
  source: AsyncIterable<Uint8Array | string>,
  columnMap: Record<string, string> | undefined,
  onPlan?: (plan: ColumnPlan) => void,
): AsyncGenerator<ImportItem[]> {
  let columns: IndexedColumns = [];
  let header: string[] = [];
  for await (const group of readCsvFieldGroups(source)) {
    const items: ImportItem[] = [];
    for (const item of group) {
      if ('header' in item) {
        const planned = planColumns(item.header, columnMap);
        if ('errors' in planned) throw new ColumnPlanError(planned.errors);
        ({ header } = item);
        columns = indexColumns(planned.plan, header);
        onPlan?.(planned.plan);
      } else if ('error' in item) {
        items.push({
          row: item.row,
          line: item.line,
          errors: [{ column: '', code: item.error.code, message: item.error.message }],
        });
      } else {
        const undecodable = undecodableColumns(item.fields, columns, header);
        items.push(
          undecodable.length > 0
            ? { row: item.row, line: item.line, errors: undecodable }
            : { row: item.row, line: item.line, input: applyColumnMapToFields(item.fields, columns) },
        );
      }
    }
    if (items.length > 0) yield items;
  }
}

/**
 * The row's imported columns that hold U+FFFD: the parser decodes UTF-8 with replacement, so that is
 * where bytes that are not UTF-8 end up (a lone surrogate in inline CSV text too). Imported as they
 * are, the row's values would be silently changed; it is reported instead, naming the CSV column.
 */
function undecodableColumns(
  fields: readonly string[],
  columns: IndexedColumns,
  header: readonly string[],
): Array<Omit<FieldError, 'value'> & { value?: string }> {
  const errors: Array<Omit<FieldError, 'value'> & { value?: string }> = [];
  for (const { index } of columns) {
    if (index < fields.length && fields[index].includes('\uFFFD')) {
      errors.push({
        column: storable(header[index]),
        value: storable(fields[index].slice(0, 200)),
        code: 'invalid_encoding',
        message: `${storable(header[index])} holds bytes that are not UTF-8`,
      });
    }
  }
  return errors;
}

/** The CSV's header cannot be mapped (no email column, a bad column_map): the whole file is refused. */
export class ColumnPlanError extends Error {
  readonly errors: FieldError[];

  constructor(errors: FieldError[]) {
    // Header names and column_map entries end up in the operation's stored problem.
    const shown = errors.map((e) => ({
      ...e,
      column: storable(e.column),
      value: storable(e.value),
      message: storable(e.message),
    }));
    super(shown.map((e) => `${e.column}: ${e.message}`).join('; '));
    this.errors = shown;
    this.name = 'ColumnPlanError';
  }
}
