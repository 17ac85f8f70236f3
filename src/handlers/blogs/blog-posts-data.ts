// Blog posts (migration 0016), and the workspace slug their public pages are found by. Tenant rows: every
// function takes the workspace id right after the queryable, except the public readers, which start from a
// workspace slug, and the scheduled publisher's sweep across workspaces. State changes are conditional
// updates (`where status = any(from)`), so a scheduled publish and a person's unpublish cannot both win.
import type { Ids } from '../../deps.ts';
import type { PageBound } from '../../db/paging.ts';
import { query, type Queryable } from '../../db/queryable.ts';

export type BlogPostStatus = 'draft' | 'scheduled' | 'published';

export interface BlogSource {
  chunk_id: string;
  url: string;
}

export interface BlogOutlineItem {
  heading: string;
  chunk_ids: string[];
}

export interface BlogPostRow {
  id: string;
  workspace_id: string;
  slug: string;
  title: string;
  meta_description: string;
  outline: BlogOutlineItem[];
  body_markdown: string;
  sources: BlogSource[];
  status: BlogPostStatus;
  publish_at: Date | null;
  published_at: Date | null;
  agent_run_id: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface BlogPostFields {
  slug: string;
  title: string;
  meta_description: string;
  outline: BlogOutlineItem[];
  body_markdown: string;
}

const columns = (q: Queryable) => query(q)`
  id, workspace_id, slug, title, meta_description, outline, body_markdown, sources, status, publish_at, published_at,
  agent_run_id, created_by, created_at, updated_at`;

export async function insertBlogPost(
  q: Queryable,
  workspaceId: string,
  ids: Ids,
  fields: BlogPostFields & { sources: BlogSource[]; agentRunId: string | null; createdBy: string | null; now: Date },
): Promise<BlogPostRow> {
  const sql = query(q);
  const [row] = await sql<BlogPostRow[]>`
    insert into blog_posts (id, workspace_id, slug, title, meta_description, outline, body_markdown, sources, status, agent_run_id, created_by, created_at, updated_at)
    values (${ids.make('post')}, ${workspaceId}, ${fields.slug}, ${fields.title}, ${fields.meta_description}, ${sql.json(fields.outline as never)},
            ${fields.body_markdown}, ${sql.json(fields.sources as never)}, 'draft', ${fields.agentRunId}, ${fields.createdBy}, ${fields.now}, ${fields.now})
    returning ${columns(q)}`;
  return row;
}

export async function findBlogPost(
  q: Queryable,
  workspaceId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<BlogPostRow | undefined> {
  const sql = query(q);
  const [row] = await sql<BlogPostRow[]>`
    select ${columns(q)} from blog_posts where id = ${id} and workspace_id = ${workspaceId} ${options.forUpdate ? sql`for update` : sql``}`;
  return row;
}

/** Slugs of the workspace's posts that start with `base`: the caller picks a free one. */
export async function slugsLike(
  q: Queryable,
  workspaceId: string,
  base: string,
  exceptId: string | null = null,
): Promise<Set<string>> {
  const rows = await query(q)<{ slug: string }[]>`
    select slug from blog_posts where workspace_id = ${workspaceId} and (slug = ${base} or slug like ${`${base}-%`}) and id is distinct from ${exceptId}`;
  return new Set(rows.map((r) => r.slug));
}

export function listBlogPostRows(
  q: Queryable,
  workspaceId: string,
  page: { statuses: BlogPostStatus[]; before?: PageBound; limit: number },
): Promise<BlogPostRow[]> {
  const sql = query(q);
  return sql<BlogPostRow[]>`
    select ${columns(q)} from blog_posts
    where workspace_id = ${workspaceId}
      ${page.statuses.length ? sql`and status = any(${sql.array(page.statuses)}::text[])` : sql``}
      ${page.before ? sql`and (created_at, id) < (${page.before.at}::timestamptz, ${page.before.id})` : sql``}
    order by created_at desc, id desc
    limit ${page.limit}`;
}

export async function updateBlogPostFields(
  q: Queryable,
  workspaceId: string,
  id: string,
  fields: BlogPostFields,
  now: Date,
): Promise<BlogPostRow> {
  const sql = query(q);
  const [row] = await sql<BlogPostRow[]>`
    update blog_posts set slug = ${fields.slug}, title = ${fields.title}, meta_description = ${fields.meta_description},
      outline = ${sql.json(fields.outline as never)}, body_markdown = ${fields.body_markdown}, updated_at = ${now}
    where id = ${id} and workspace_id = ${workspaceId}
    returning ${columns(q)}`;
  return row;
}

export interface BlogStatusChange {
  from: BlogPostStatus[];
  to: BlogPostStatus;
  publishAt: Date | null;
  publishedAt: Date | null;
  now: Date;
  /** Only when its publish_at has come by then (the scheduled publisher: a post rescheduled meanwhile waits). */
  dueBy?: Date;
}

/** Moves the post when it is in one of `from`; undefined when it was not (someone moved it first). */
export async function setBlogPostStatus(
  q: Queryable,
  workspaceId: string,
  id: string,
  change: BlogStatusChange,
): Promise<BlogPostRow | undefined> {
  const sql = query(q);
  const [row] = await sql<BlogPostRow[]>`
    update blog_posts set status = ${change.to}, publish_at = ${change.publishAt}, published_at = ${change.publishedAt}, updated_at = ${change.now}
    where id = ${id} and workspace_id = ${workspaceId} and status = any(${sql.array(change.from)}::text[])
      ${change.dueBy ? sql`and publish_at <= ${change.dueBy}` : sql``}
    returning ${columns(q)}`;
  return row;
}

export async function deleteBlogPostRow(q: Queryable, workspaceId: string, id: string): Promise<boolean> {
  const rows = await query(q)`delete from blog_posts where id = ${id} and workspace_id = ${workspaceId} returning id`;
  return rows.length > 0;
}

/** Scheduled posts whose time has come, in any workspace: the scheduled publisher's work list. */
export function duePostsAcrossWorkspaces(
  q: Queryable,
  now: Date,
  limit: number,
): Promise<{ id: string; workspace_id: string }[]> {
  return query(q)<{ id: string; workspace_id: string }[]>`
    select id, workspace_id from blog_posts where status = 'scheduled' and publish_at <= ${now} order by publish_at, id limit ${limit}`;
}

export interface BlogWorkspace {
  id: string;
  name: string;
  slug: string;
}

export async function findWorkspaceSlug(q: Queryable, workspaceId: string): Promise<string> {
  const [row] = await query(q)<{ slug: string }[]>`select slug from workspaces where id = ${workspaceId}`;
  return row.slug;
}

/** The public pages' entry: a workspace by its blog slug. */
export async function findBlogWorkspace(q: Queryable, slug: string): Promise<BlogWorkspace | undefined> {
  const [row] = await query(q)<BlogWorkspace[]>`select id, name, slug from workspaces where slug = ${slug}`;
  return row;
}

export function listPublishedPosts(q: Queryable, workspaceId: string, limit: number): Promise<BlogPostRow[]> {
  return query(q)<BlogPostRow[]>`
    select ${columns(q)} from blog_posts where workspace_id = ${workspaceId} and status = 'published'
    order by published_at desc, id desc limit ${limit}`;
}

export async function findPublishedPost(
  q: Queryable,
  workspaceId: string,
  slug: string,
): Promise<BlogPostRow | undefined> {
  const [row] = await query(q)<BlogPostRow[]>`
    select ${columns(q)} from blog_posts where workspace_id = ${workspaceId} and slug = ${slug} and status = 'published'`;
  return row;
}
