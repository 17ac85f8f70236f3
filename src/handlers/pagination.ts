// Opaque keyset cursors for `{data, has_more, next_cursor}` lists: the position is (created_at, id).
import { ApiError } from '../errors.ts';

export interface Position {
  at: string;
  id: string;
}

export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): Position | undefined {
  if (cursor === undefined) return undefined;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(at))) return { at, id };
  } catch {
    // fall through to the error below
  }
  throw new ApiError('validation_failed', 'The cursor is not one this API returned.', {
    errors: [{ field: 'query.cursor', code: 'invalid_cursor', message: 'pass next_cursor from the previous page unchanged' }],
  });
}

/** Rows were fetched with limit + 1, so one extra row means there is another page. */
export function page<Row, Item>(rows: Row[], limit: number, toItem: (row: Row) => Item, position: (row: Row) => Position) {
  const hasMore = rows.length > limit;
  const shown = hasMore ? rows.slice(0, limit) : rows;
  return {
    data: shown.map(toItem),
    has_more: hasMore,
    next_cursor: hasMore ? encodeCursor(position(shown[shown.length - 1])) : null,
  };
}

export function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
