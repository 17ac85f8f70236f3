// The workspaces table: the tenant itself. Its rows are looked up by their own id.
import { slugify } from '../../slug.ts';
import type { Ids } from '../../deps.ts';
import { query, type Queryable } from '../../db/queryable.ts';

export interface WorkspaceRow {
  id: string;
  name: string;
  created_at: Date;
}

export interface WorkspaceSummary extends WorkspaceRow {
  members: number;
}

const columns = (q: Queryable) => query(q)`id, name, created_at`;

export async function insertWorkspace(
  q: Queryable,
  ids: Ids,
  fields: { name: string; now: Date },
): Promise<WorkspaceRow> {
  const [row] = await query(q)<WorkspaceRow[]>`
    insert into workspaces (id, name, created_at, slug)
    values (${ids.make('ws')}, ${fields.name}, ${fields.now}, workspace_slug_free(${slugify(fields.name, 48, 'blog')}))
    returning ${columns(q)}`;
  return row;
}

export async function findWorkspace(q: Queryable, workspaceId: string): Promise<WorkspaceRow | undefined> {
  const [row] = await query(q)<WorkspaceRow[]>`select ${columns(q)} from workspaces where id = ${workspaceId}`;
  return row;
}

/** Every workspace with its member count: for the operator, who sees across tenants. */
export function listAllWorkspaces(q: Queryable): Promise<WorkspaceSummary[]> {
  return query(q)<WorkspaceSummary[]>`
    select w.id, w.name, w.created_at, (select count(*)::int from memberships m where m.workspace_id = w.id) as members
    from workspaces w order by w.created_at, w.id`;
}

/** Locks the workspace row until the transaction ends: serializes checks of per-workspace limits. */
export async function lockWorkspace(q: Queryable, workspaceId: string): Promise<void> {
  await query(q)`select id from workspaces where id = ${workspaceId} for update`;
}
