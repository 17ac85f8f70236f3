// Blog posts as records: create (the blog-post-writer's last step), read, list, edit and delete. Every
// change records its event in the transaction that makes it.
import {
  deleteBlogPost as deleteRow,
  findBlogPost,
  findWorkspaceSlug,
  insertBlogPost,
  listBlogPosts,
  slugsLike,
  updateBlogPostFields,
  type BlogPostFields,
  type BlogPostRow,
  type BlogPostStatus,
  type BlogSource,
} from './blog-posts-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { signPreview } from './preview-token.ts';
import { blogPostEventData, blogPostUrl, blogPreviewUrl, type BlogPostView } from './wire.ts';

export async function viewPosts(deps: Deps, q: Queryable, workspaceId: string, rows: BlogPostRow[]): Promise<BlogPostView[]> {
  if (!rows.length) return [];
  const workspaceSlug = await findWorkspaceSlug(q, workspaceId);
  const now = deps.clock.now();
  return rows.map((row) => ({
    row,
    url: blogPostUrl(deps.config.publicBaseUrl, workspaceSlug, row.slug),
    previewUrl: blogPreviewUrl(deps.config.publicBaseUrl, signPreview(deps.auth.apiKeyPepper, { workspaceId, postId: row.id }, now)),
  }));
}

export const viewPost = async (deps: Deps, q: Queryable, row: BlogPostRow): Promise<BlogPostView> => (await viewPosts(deps, q, row.workspace_id, [row]))[0];

export async function requirePost(q: Queryable, workspaceId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<BlogPostRow> {
  const row = await findBlogPost(q, workspaceId, id, options);
  if (!row) throw new ApiError('not_found', `No blog post ${id} in this workspace.`);
  return row;
}

/** `base`, or `base-2`, `base-3`… : the first slug no other post of the workspace has. */
async function freeSlug(q: Queryable, workspaceId: string, base: string): Promise<string> {
  const taken = await slugsLike(q, workspaceId, base);
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base.slice(0, 75)}-${n}`;
  return slug;
}

/** Inserts a draft and its event with `tx` (an agent run commits its checkpoint with them); a taken slug gets a suffix. */
export async function insertPostRecorded(deps: Deps, tx: Queryable, actor: Actor, fields: BlogPostFields & { sources: BlogSource[]; agentRunId: string | null }): Promise<BlogPostRow> {
  const slug = await freeSlug(tx, actor.workspaceId, fields.slug);
  const row = await insertBlogPost(tx, actor.workspaceId, deps.ids, { ...fields, slug, createdBy: actor.userId, now: deps.clock.now() });
  await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'blog_post.created', blogPostEventData(await viewPost(deps, tx, row)));
  return row;
}

export async function getPost(deps: Deps, actor: Actor, postId: string): Promise<BlogPostView> {
  return viewPost(deps, deps.db.sql, await requirePost(deps.db.sql, actor.workspaceId, postId));
}

export async function listPosts(deps: Deps, actor: Actor, page: { statuses: BlogPostStatus[]; before?: { at: string; id: string }; limit: number }): Promise<BlogPostView[]> {
  return viewPosts(deps, deps.db.sql, actor.workspaceId, await listBlogPosts(deps.db.sql, actor.workspaceId, page));
}

export type BlogPostPatch = Partial<Omit<BlogPostFields, 'outline'>>;

/** Edits in any status: a published post changes on its public page at once. A slug another post has is 409. */
export async function updatePost(deps: Deps, actor: Actor, postId: string, patch: BlogPostPatch): Promise<BlogPostView> {
  return deps.db.sql.begin(async (tx) => {
    const current = await requirePost(tx, actor.workspaceId, postId, { forUpdate: true });
    if (Object.keys(patch).length === 0) return viewPost(deps, tx, current);
    if (patch.slug && patch.slug !== current.slug && (await slugsLike(tx, actor.workspaceId, patch.slug, current.id)).has(patch.slug)) {
      throw new ApiError('slug_taken', `Another post of this workspace has the slug "${patch.slug}": choose another.`);
    }
    const updated = await updateBlogPostFields(tx, actor.workspaceId, postId, { ...current, ...patch }, deps.clock.now());
    const view = await viewPost(deps, tx, updated);
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'blog_post.updated', blogPostEventData(view));
    return view;
  });
}

export async function deletePost(deps: Deps, actor: Actor, postId: string): Promise<{ id: string }> {
  await deps.db.sql.begin(async (tx) => {
    const view = await viewPost(deps, tx, await requirePost(tx, actor.workspaceId, postId, { forUpdate: true }));
    await deleteRow(tx, actor.workspaceId, postId);
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'blog_post.deleted', blogPostEventData(view));
  });
  return { id: postId };
}
