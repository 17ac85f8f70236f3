// What the blog post operations share: a post of the workspace or 404, its view (with its public and preview
// addresses), a draft inserted with its event (the blog-post-writer's last step), and a change recorded with
// its event. Every change records its event in the transaction that makes it.
import {
  findBlogPost,
  findWorkspaceSlug,
  insertBlogPost,
  slugsLike,
  type BlogPostFields,
  type BlogPostRow,
  type BlogSource,
} from './blog-posts-data.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../actor.ts';
import type { EventActor } from '../events/events-data.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { signPreview } from './preview-token.ts';
import { blogPostEventData, blogPostUrl, blogPreviewUrl, type BlogPostView } from './wire.ts';

export async function viewPosts(
  deps: Deps,
  q: Queryable,
  workspaceId: string,
  rows: BlogPostRow[],
): Promise<BlogPostView[]> {
  if (!rows.length) return [];
  const workspaceSlug = await findWorkspaceSlug(q, workspaceId);
  const now = deps.clock.now();
  return rows.map((row) => ({
    row,
    url: blogPostUrl(deps.config.publicBaseUrl, workspaceSlug, row.slug),
    previewUrl: blogPreviewUrl(
      deps.config.publicBaseUrl,
      signPreview(deps.auth.apiKeyPepper, { workspaceId, postId: row.id }, now),
    ),
  }));
}

export const viewPost = async (deps: Deps, q: Queryable, row: BlogPostRow): Promise<BlogPostView> =>
  (await viewPosts(deps, q, row.workspace_id, [row]))[0];

export async function requirePost(
  q: Queryable,
  workspaceId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<BlogPostRow> {
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
export async function insertPostRecorded(
  deps: Deps,
  tx: Queryable,
  actor: Actor,
  fields: BlogPostFields & { sources: BlogSource[]; agentRunId: string | null },
): Promise<BlogPostRow> {
  const slug = await freeSlug(tx, actor.workspaceId, fields.slug);
  const row = await insertBlogPost(tx, actor.workspaceId, deps.ids, {
    ...fields,
    slug,
    createdBy: actor.userId,
    now: deps.clock.now(),
  });
  await recordEvent(
    deps,
    tx,
    actor.workspaceId,
    eventActor(actor),
    'blog_post.created',
    blogPostEventData(await viewPost(deps, tx, row)),
  );
  return row;
}

/** The post's view, with `event` recorded about it in `tx`. */
export async function recordPostEvent(
  deps: Deps,
  tx: Queryable,
  actor: EventActor,
  row: BlogPostRow,
  event: string,
): Promise<BlogPostView> {
  const view = await viewPost(deps, tx, row);
  await recordEvent(deps, tx, row.workspace_id, actor, event, blogPostEventData(view));
  return view;
}
