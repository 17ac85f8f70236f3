import type { AgentRunRow } from '../agents/agent-runs-data.ts';
import type { GenerateAdCreativesInput, GenerateAdCreativesOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { adCopyWriter } from '../agents/ad-copy/definition.ts';
import type { z } from 'zod';
import type { adCopyInput } from '../agents/ad-copy/input.ts';
import { runAgent } from '../agents/run-agent.ts';
import { agentRunPath, runBody } from '../agents/wire.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

/** run_agent with the ad-copy-writer: the run engine writes the creatives. */
export function generateAdCreatives(
  deps: Deps,
  actor: Actor,
  request: z.input<typeof adCopyInput>,
): Promise<AgentRunRow> {
  return runAgent(deps, actor, { agentId: adCopyWriter.slug, input: request });
}

export async function handle(input: GenerateAdCreativesInput, ctx: HandlerContext): Promise<GenerateAdCreativesOutput> {
  const run = await generateAdCreatives(ctx.deps, actorFrom(ctx), input.body);
  return { status: 202, body: runBody(run), headers: { Location: agentRunPath(run.id) } };
}
