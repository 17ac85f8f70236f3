// Keyset cursors for `{data, has_more, next_cursor}` lists: the position is (created_at, id). A cursor is
// the position plus an HMAC over it, the list and the workspace, so a client can only hand back a cursor
// this service issued for the same list and workspace; anything else is a 400 `invalid_cursor` before any
// query runs. The position is parsed strictly as well, so even a forged MAC cannot reach PostgreSQL with
// a timestamp out of its range or text it cannot store.
import { createHmac } from 'node:crypto';
import { derivedKey } from '../auth/derived-key.ts';
import { tagMatches } from '../auth/signed-tag.ts';
import { ApiError } from '../errors.ts';

export interface Position {
  at: string;
  id: string;
}

/** What a cursor is bound to: the MAC key's source secret, the list (operation id) and the workspace. */
export interface CursorScope {
  secret: Uint8Array;
  list: string;
  workspaceId: string;
}

// The cursor key is derived from the API-key pepper under its own label, so no new secret is stored and
// a cursor MAC can never be mistaken for a key hash.
const KEY_LABEL = 'service-mcp list cursor v1';
const MAC_BYTES = 16;
const cursorKey = (secret: Uint8Array): Buffer => derivedKey(secret, KEY_LABEL);

export function cursorScope(deps: { apiKeyPepper: Uint8Array }, list: string, workspaceId: string): CursorScope {
  return { secret: deps.apiKeyPepper, list, workspaceId };
}

function mac(scope: CursorScope, payload: string): Buffer {
  const hmac = createHmac('sha256', cursorKey(scope.secret));
  hmac.update(`${scope.list}\n${scope.workspaceId}\n${payload}`);
  return hmac.digest().subarray(0, MAC_BYTES);
}

export function encodeCursor(position: Position, scope: CursorScope): string {
  const payload = Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
  return `${payload}.${mac(scope, payload).toString('base64url')}`;
}

// Date.prototype.toISOString's own shape, in years PostgreSQL and JavaScript both represent.
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ID = /^[a-z]+_[0-9a-z]{26}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function parsePosition(payload: string): Position | undefined {
  const value: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [at, id] = value as unknown[];
  if (typeof at !== 'string' || typeof id !== 'string' || !ISO_MS.test(at) || !ID.test(id)) return undefined;
  const time = Date.parse(at);
  if (Number.isNaN(time) || time < 0 || new Date(time).toISOString() !== at) return undefined;
  return { at, id };
}

function verified(cursor: string, scope: CursorScope): Position | undefined {
  const [payload, tag, ...rest] = cursor.split('.');
  if (rest.length || !payload || !tag || !BASE64URL.test(payload)) return undefined;
  // Only the tag as written (tagMatches): a cursor with any character of it changed is refused.
  if (!tagMatches(tag, mac(scope, payload))) return undefined;
  try {
    return parsePosition(payload);
  } catch {
    return undefined;
  }
}

export function decodeCursor(cursor: string | undefined, scope: CursorScope): Position | undefined {
  if (cursor === undefined) return undefined;
  const position = verified(cursor, scope);
  if (position) return position;
  throw new ApiError('invalid_cursor', 'The cursor is not one this list returned.', {
    errors: [
      {
        field: 'query.cursor',
        code: 'invalid_cursor',
        message: 'pass next_cursor from the previous page of the same list unchanged',
      },
    ],
  });
}

/** Rows were fetched with limit + 1, so one extra row means there is another page. */
export function page<Row, Item>(
  rows: Row[],
  limit: number,
  toItem: (row: Row) => Item,
  position: (row: Row) => Position,
  scope: CursorScope,
) {
  const hasMore = rows.length > limit;
  const shown = hasMore ? rows.slice(0, limit) : rows;
  return {
    data: shown.map(toItem),
    has_more: hasMore,
    next_cursor: hasMore ? encodeCursor(position(shown[shown.length - 1]), scope) : null,
  };
}

export function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
