import type { z } from 'zod';
import type { AgentRunRow } from '../agents/agent-runs-data.ts';
import type { GenerateBlogPostInput, GenerateBlogPostOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { blogPostWriter } from '../agents/blog-post/definition.ts';
import type { blogPostInput } from '../agents/blog-post/input.ts';
import { runAgent } from '../agents/run-agent.ts';
import { agentRunPath, runBody } from '../agents/wire.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

/** run_agent with the blog-post-writer: the run engine writes the post. */
export function generateBlogPost(
  deps: Deps,
  actor: Actor,
  request: z.input<typeof blogPostInput>,
): Promise<AgentRunRow> {
  return runAgent(deps, actor, { agentId: blogPostWriter.slug, input: request });
}

export async function handle(input: GenerateBlogPostInput, ctx: HandlerContext): Promise<GenerateBlogPostOutput> {
  const run = await generateBlogPost(ctx.deps, actorFrom(ctx), input.body);
  return { status: 202, body: runBody(run), headers: { Location: agentRunPath(run.id) } };
}
