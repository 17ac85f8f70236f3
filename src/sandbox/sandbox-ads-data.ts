// The sandbox ads platform's table (sandbox_ad_objects, migration 0015): what a launch would have
// created at Meta. Objects belong to the grant (and through it the workspace) whose token made them;
// lookups come by the token's grant, the only thing the platform sees.
import type { Ids } from '../deps.ts';
import { query, type Queryable } from '../db/queryable.ts';

export type SandboxAdKind = 'campaign' | 'adset' | 'adcreative' | 'ad';

export interface SandboxAdObjectRow {
  id: string;
  workspace_id: string;
  grant_id: string;
  kind: SandboxAdKind;
  parent_id: string | null;
  status: string;
  fields: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const columns = (q: Queryable) =>
  query(q)`id, workspace_id, grant_id, kind, parent_id, status, fields, created_at, updated_at`;

export async function insertSandboxAdObject(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  f: {
    grantId: string;
    kind: SandboxAdKind;
    parentId: string | null;
    status: string;
    fields: Record<string, unknown>;
    now: Date;
  },
): Promise<SandboxAdObjectRow> {
  const sql = query(q);
  const [row] = await sql<SandboxAdObjectRow[]>`
    insert into sandbox_ad_objects (id, workspace_id, grant_id, kind, parent_id, status, fields, created_at, updated_at)
    values (${ids.make('sbxad')}, ${workspaceId}, ${f.grantId}, ${f.kind}, ${f.parentId}, ${f.status}, ${sql.json(f.fields as never)}, ${f.now}, ${f.now})
    returning ${columns(q)}`;
  return row;
}

export async function findSandboxAdObjectByGrant(
  q: Queryable,
  grantId: string,
  id: string,
): Promise<SandboxAdObjectRow | undefined> {
  const [row] = await query(q)<
    SandboxAdObjectRow[]
  >`select ${columns(q)} from sandbox_ad_objects where id = ${id} and grant_id = ${grantId}`;
  return row;
}

export async function setSandboxAdStatusByGrant(
  q: Queryable,
  grantId: string,
  id: string,
  status: string,
  now: Date,
): Promise<boolean> {
  const rows = await query(
    q,
  )`update sandbox_ad_objects set status = ${status}, updated_at = ${now} where id = ${id} and grant_id = ${grantId} returning id`;
  return rows.length > 0;
}

/** What the workspace's sandbox launches would have created, oldest first (for tests and the operator). */
export function listSandboxAdObjects(q: Queryable, workspaceId: string): Promise<SandboxAdObjectRow[]> {
  return query(q)<
    SandboxAdObjectRow[]
  >`select ${columns(q)} from sandbox_ad_objects where workspace_id = ${workspaceId} order by created_at, id`;
}

/** The grant's objects of one kind named exactly `name` (Graph's list edges filtered by name). */
export function findSandboxAdObjectsByName(
  q: Queryable,
  grantId: string,
  kind: SandboxAdKind,
  name: string,
): Promise<SandboxAdObjectRow[]> {
  return query(q)<SandboxAdObjectRow[]>`
    select ${columns(q)} from sandbox_ad_objects where grant_id = ${grantId} and kind = ${kind} and fields->>'name' = ${name} order by created_at, id`;
}

/** Merges `fields` into an object's recorded fields (an edit at the platform); false when the grant has no such object. */
export async function updateSandboxAdFieldsByGrant(
  q: Queryable,
  grantId: string,
  id: string,
  fields: Record<string, unknown>,
  now: Date,
): Promise<boolean> {
  const sql = query(q);
  const rows =
    await sql`update sandbox_ad_objects set fields = fields || ${sql.json(fields as never)}, updated_at = ${now} where id = ${id} and grant_id = ${grantId} returning id`;
  return rows.length > 0;
}
