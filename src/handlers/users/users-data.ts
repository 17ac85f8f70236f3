// The users table: global accounts, not tenant rows (one person may belong to several workspaces),
// so these functions take no workspace id. Emails are stored as given after normaliseEmail and
// compared with lower(), as the unique index users_email_key compares them.
import type { Ids } from '../../deps.ts';
import { query, type Queryable } from '../../db/queryable.ts';
import { normaliseEmail } from '../../auth/normalise-email.ts';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  created_at: Date;
}

/** A user with the hash login checks; never leaves the login operation. */
export interface AccountRow {
  id: string;
  password_hash: string;
}

const columns = (q: Queryable) => query(q)`id, email, name, created_at`;

/**
 * Creates an account; undefined when the email (in any letter case) already has one. The caller
 * decides what that means (signup: 409; invitation: log in instead).
 */
export async function insertUser(
  q: Queryable,
  ids: Ids,
  fields: { email: string; name: string; passwordHash: string; now: Date },
): Promise<UserRow | undefined> {
  const [row] = await query(q)<UserRow[]>`
    insert into users (id, email, name, password_hash, created_at)
    values (${ids.make('usr')}, ${normaliseEmail(fields.email)}, ${fields.name}, ${fields.passwordHash}, ${fields.now})
    on conflict do nothing
    returning ${columns(q)}`;
  return row;
}

export async function findUser(q: Queryable, userId: string): Promise<UserRow | undefined> {
  const [row] = await query(q)<UserRow[]>`select ${columns(q)} from users where id = ${userId}`;
  return row;
}

export async function findUserByEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
  const [row] = await query(q)<
    UserRow[]
  >`select ${columns(q)} from users where lower(email) = lower(${normaliseEmail(email)})`;
  return row;
}

export async function findAccountByEmail(q: Queryable, email: string): Promise<AccountRow | undefined> {
  const [row] = await query(q)<
    AccountRow[]
  >`select id, password_hash from users where lower(email) = lower(${normaliseEmail(email)})`;
  return row;
}

export async function updatePasswordHash(q: Queryable, userId: string, passwordHash: string): Promise<void> {
  await query(q)`update users set password_hash = ${passwordHash} where id = ${userId}`;
}

/**
 * A new password chosen by its person: password_version moves on, which ends every admin panel session
 * started under the old one (see src/admin/session-data.ts). A rehash at login keeps the version.
 */
export async function replacePassword(q: Queryable, userId: string, passwordHash: string): Promise<void> {
  await query(q)`
    update users set password_hash = ${passwordHash}, password_version = password_version + 1 where id = ${userId}`;
}

/** False on a fresh install: start-up then says where to create the first account. */
export async function anyUserExists(q: Queryable): Promise<boolean> {
  const rows = await query(q)`select 1 from users limit 1`;
  return rows.length > 0;
}
