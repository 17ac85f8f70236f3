import type { AdCampaignStatus } from './ad-campaigns-data.ts';
import type {
  ArchiveAdCampaignInput,
  ArchiveAdCampaignOutput,
  CreateAdCampaignInput,
  CreateAdCampaignOutput,
  GenerateAdCreativesInput,
  GenerateAdCreativesOutput,
  GetAdCampaignInput,
  GetAdCampaignOutput,
  LaunchAdCampaignInput,
  LaunchAdCampaignOutput,
  ListAdCampaignsInput,
  ListAdCampaignsOutput,
  PauseAdCampaignInput,
  PauseAdCampaignOutput,
  ResumeAdCampaignInput,
  ResumeAdCampaignOutput,
  UpdateAdCampaignInput,
  UpdateAdCampaignOutput,
} from '../../generated/handlers.ts';
import { createAdCampaign as create, getAdCampaign as get, listAdCampaigns as list, updateAdCampaign as update } from './campaigns-logic.ts';
import { launchAdCampaign as launch } from './launch.ts';
import { archiveAdCampaign as archive, pauseAdCampaign as pause, resumeAdCampaign as resume } from './lifecycle.ts';
import { adCampaignBody } from './wire.ts';
import { adCopyWriter } from '../agents/ad-copy/definition.ts';
import { runAgent } from '../agents/run-agent.ts';
import { runBody } from '../agents/wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { cursorScope, decodeCursor, page } from '../pagination.ts';
import { commaList } from '../query-lists.ts';

const statuses: readonly AdCampaignStatus[] = ['draft', 'launching', 'pending_review', 'active', 'disapproved', 'paused', 'completed', 'archived'];

export async function listAdCampaigns(input: ListAdCampaignsInput, ctx: HandlerContext): Promise<ListAdCampaignsOutput> {
  const actor = actorFrom(ctx);
  const limit = input.query.limit ?? 20;
  const scope = cursorScope(ctx.deps.auth, 'list_ad_campaigns', actor.workspaceId);
  const rows = await list(ctx.deps, actor, { statuses: commaList(input.query.status, 'status', statuses), before: decodeCursor(input.query.cursor, scope), limit: limit + 1 });
  return { status: 200, body: page(rows, limit, adCampaignBody, (r) => ({ at: r.created_at.toISOString(), id: r.id }), scope) };
}

export async function createAdCampaign(input: CreateAdCampaignInput, ctx: HandlerContext): Promise<CreateAdCampaignOutput> {
  return { status: 201, body: adCampaignBody(await create(ctx.deps, actorFrom(ctx), input.body)) };
}

export async function getAdCampaign(input: GetAdCampaignInput, ctx: HandlerContext): Promise<GetAdCampaignOutput> {
  return { status: 200, body: adCampaignBody(await get(ctx.deps, actorFrom(ctx), input.path.campaign_id, { waitSeconds: input.query.wait_seconds ?? 0, signal: ctx.signal })) };
}

export async function updateAdCampaign(input: UpdateAdCampaignInput, ctx: HandlerContext): Promise<UpdateAdCampaignOutput> {
  return { status: 200, body: adCampaignBody(await update(ctx.deps, actorFrom(ctx), input.path.campaign_id, input.body)) };
}

export async function launchAdCampaign(input: LaunchAdCampaignInput, ctx: HandlerContext): Promise<LaunchAdCampaignOutput> {
  return { status: 202, body: adCampaignBody(await launch(ctx.deps, actorFrom(ctx), { campaignId: input.path.campaign_id, confirm: input.body.confirm })) };
}

export async function pauseAdCampaign(input: PauseAdCampaignInput, ctx: HandlerContext): Promise<PauseAdCampaignOutput> {
  return { status: 200, body: adCampaignBody(await pause(ctx.deps, actorFrom(ctx), input.path.campaign_id)) };
}

export async function resumeAdCampaign(input: ResumeAdCampaignInput, ctx: HandlerContext): Promise<ResumeAdCampaignOutput> {
  return { status: 200, body: adCampaignBody(await resume(ctx.deps, actorFrom(ctx), input.path.campaign_id)) };
}

export async function archiveAdCampaign(input: ArchiveAdCampaignInput, ctx: HandlerContext): Promise<ArchiveAdCampaignOutput> {
  const { row, note } = await archive(ctx.deps, actorFrom(ctx), input.path.campaign_id);
  return { status: 200, body: { ...adCampaignBody(row), ...(note && { note }) } };
}

export async function generateAdCreatives(input: GenerateAdCreativesInput, ctx: HandlerContext): Promise<GenerateAdCreativesOutput> {
  const run = await runAgent(ctx.deps, actorFrom(ctx), { agentId: adCopyWriter.slug, input: input.body });
  return { status: 202, body: runBody(run), headers: { Location: `/api/v1/agent-runs/${run.id}` } };
}
