// The memberships table: who belongs to which workspace, with what role. Tenant rows: every
// function takes the workspace id right after the queryable.
import { query, type Queryable } from '../../db/queryable.ts';
import type { PageBound } from '../../db/paging.ts';

export type Role = 'owner' | 'admin' | 'member';

/** A membership joined with its user's email and name. */
export interface MemberRow {
  user_id: string;
  email: string;
  name: string;
  role: Role;
  created_at: Date;
}

const memberSelect = (q: Queryable) => query(q)`
  select m.user_id, u.email, u.name, m.role, m.created_at
  from memberships m join users u on u.id = m.user_id`;

/** Adds the user with this role; false when they are already a member. */
export async function insertMembership(
  q: Queryable,
  workspaceId: string,
  fields: { userId: string; role: Role; now: Date },
): Promise<boolean> {
  const rows = await query(q)`
    insert into memberships (workspace_id, user_id, role, created_at) values (${workspaceId}, ${fields.userId}, ${fields.role}, ${fields.now})
    on conflict do nothing returning 1`;
  return rows.length > 0;
}

export async function findMember(q: Queryable, workspaceId: string, userId: string): Promise<MemberRow | undefined> {
  const [row] = await query(q)<
    MemberRow[]
  >`${memberSelect(q)} where m.workspace_id = ${workspaceId} and m.user_id = ${userId}`;
  return row;
}

export async function findMemberByEmail(
  q: Queryable,
  workspaceId: string,
  email: string,
): Promise<MemberRow | undefined> {
  const [row] = await query(q)<
    MemberRow[]
  >`${memberSelect(q)} where m.workspace_id = ${workspaceId} and lower(u.email) = lower(${email})`;
  return row;
}

/** A page of members, oldest first, strictly after `after` when given. */
export function findMembers(
  q: Queryable,
  workspaceId: string,
  page: { limit: number; after?: PageBound },
): Promise<MemberRow[]> {
  const sql = query(q);
  const { after } = page;
  return sql<MemberRow[]>`
    ${memberSelect(q)} where m.workspace_id = ${workspaceId}
      ${after ? sql`and (m.created_at, m.user_id) > (${after.at}::timestamptz, ${after.id})` : sql``}
    order by m.created_at, m.user_id
    limit ${page.limit}`;
}

export async function setMemberRole(q: Queryable, workspaceId: string, userId: string, role: Role): Promise<void> {
  await query(q)`update memberships set role = ${role} where workspace_id = ${workspaceId} and user_id = ${userId}`;
}

export async function deleteMembership(q: Queryable, workspaceId: string, userId: string): Promise<void> {
  await query(q)`delete from memberships where workspace_id = ${workspaceId} and user_id = ${userId}`;
}

/**
 * The workspace a login lands in: `wanted` when the user belongs to it, else their first one.
 * Keyed by the user, before any workspace is known.
 */
export async function loginWorkspaceOf(
  q: Queryable,
  userId: string,
  wanted: string | undefined,
): Promise<string | undefined> {
  const [row] = await query(q)<{ workspace_id: string }[]>`
    select workspace_id from memberships where user_id = ${userId}
      and (${wanted ?? null}::text is null or workspace_id = ${wanted ?? null})
    order by created_at, workspace_id limit 1`;
  return row?.workspace_id;
}
