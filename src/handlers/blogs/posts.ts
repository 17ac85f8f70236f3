import type { BlogPostStatus } from './blog-posts-data.ts';
import type {
  DeleteBlogPostInput,
  DeleteBlogPostOutput,
  GenerateBlogPostInput,
  GenerateBlogPostOutput,
  GetBlogPostInput,
  GetBlogPostOutput,
  ListBlogPostsInput,
  ListBlogPostsOutput,
  PublishBlogPostInput,
  PublishBlogPostOutput,
  UnpublishBlogPostInput,
  UnpublishBlogPostOutput,
  UpdateBlogPostInput,
  UpdateBlogPostOutput,
} from '../../generated/handlers.ts';
import { blogPostWriter } from '../agents/blog-post/definition.ts';
import { runAgent } from '../agents/run-agent.ts';
import { runBody } from '../agents/wire.ts';
import { deletePost, getPost, listPosts, updatePost } from './posts-logic.ts';
import { publishPost, unpublishPost } from './publish.ts';
import { blogPostBody } from './wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';

const statuses: readonly BlogPostStatus[] = ['draft', 'scheduled', 'published'];

/** run_agent with the blog-post-writer: the run engine writes the post. */
export async function generateBlogPost(input: GenerateBlogPostInput, ctx: HandlerContext): Promise<GenerateBlogPostOutput> {
  const run = await runAgent(ctx.deps, actorFrom(ctx), { agentId: blogPostWriter.slug, input: input.body });
  return { status: 202, body: runBody(run), headers: { Location: `/api/v1/agent-runs/${run.id}` } };
}

export async function getBlogPost(input: GetBlogPostInput, ctx: HandlerContext): Promise<GetBlogPostOutput> {
  return { status: 200, body: blogPostBody(await getPost(ctx.deps, actorFrom(ctx), input.path.post_id)) };
}

export async function listBlogPosts(input: ListBlogPostsInput, ctx: HandlerContext): Promise<ListBlogPostsOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_blog_posts', actor.workspaceId);
  const views = await listPosts(ctx.deps, actor, { statuses: commaList(input.query.status, 'status', statuses), before: decodeCursor(input.query.cursor, scope), limit: limit + 1 });
  return { status: 200, body: page(views, limit, blogPostBody, (v) => ({ at: v.row.created_at.toISOString(), id: v.row.id }), scope) };
}

export async function updateBlogPost(input: UpdateBlogPostInput, ctx: HandlerContext): Promise<UpdateBlogPostOutput> {
  return { status: 200, body: blogPostBody(await updatePost(ctx.deps, actorFrom(ctx), input.path.post_id, input.body)) };
}

export async function deleteBlogPost(input: DeleteBlogPostInput, ctx: HandlerContext): Promise<DeleteBlogPostOutput> {
  const { id } = await deletePost(ctx.deps, actorFrom(ctx), input.path.post_id);
  return { status: 200, body: { id, deleted: true } };
}

export async function publishBlogPost(input: PublishBlogPostInput, ctx: HandlerContext): Promise<PublishBlogPostOutput> {
  return { status: 200, body: blogPostBody(await publishPost(ctx.deps, actorFrom(ctx), { postId: input.path.post_id, publishAt: input.body?.publish_at })) };
}

export async function unpublishBlogPost(input: UnpublishBlogPostInput, ctx: HandlerContext): Promise<UnpublishBlogPostOutput> {
  return { status: 200, body: blogPostBody(await unpublishPost(ctx.deps, actorFrom(ctx), input.path.post_id)) };
}
