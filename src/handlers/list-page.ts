// One page of a `{data, has_more, next_cursor}` list, the same way for every list operation: the cursor is
// checked before any query runs, one row more than the page is fetched to learn whether another page follows,
// and the next cursor is signed for the same list and workspace (src/handlers/pagination.ts).
import { decodeCursor, page, type CursorScope, type Position } from './pagination.ts';

/** The paging part of a list operation's query; the contract gives `limit` its default and bounds. */
export interface PageQuery {
  limit: number;
  cursor?: string;
}

/** What the fetch function is given: how many rows to return, and the position to continue past, in list order. */
export interface PageWindow {
  limit: number;
  after: Position | undefined;
}

export interface ListPage<Item> {
  data: Item[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface ListSource<Row, Item> {
  /** The list's cursor scope (`cursorScope(deps.auth, operationId, workspaceId)`). */
  scope: CursorScope;
  /** The rows of the list in its order, at most `limit` of them, strictly past `after` when it is set. */
  fetch: (window: PageWindow) => Promise<Row[]>;
  toItem: (row: Row) => Item;
  /** Where a row sits in the list; the last shown row's position becomes the next cursor. */
  position: (row: Row) => Position;
}

export async function listPage<Row, Item>(query: PageQuery, source: ListSource<Row, Item>): Promise<ListPage<Item>> {
  const after = decodeCursor(query.cursor, source.scope);
  const rows = await source.fetch({ limit: query.limit + 1, after });
  return page(rows, query.limit, source.toItem, source.position, source.scope);
}

/** The position of a row in a list ordered by creation: `(created_at, id)`. */
export function byCreation(row: { created_at: Date; id: string }): Position {
  return { at: row.created_at.toISOString(), id: row.id };
}
