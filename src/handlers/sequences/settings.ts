import type { GetWorkspaceSettingsInput, GetWorkspaceSettingsOutput, UpdateWorkspaceSettingsInput, UpdateWorkspaceSettingsOutput } from '../../generated/handlers.ts';
import { getWorkspaceSettings as get, updateWorkspaceSettings as update } from './settings-logic.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function getWorkspaceSettings(_input: GetWorkspaceSettingsInput, ctx: HandlerContext): Promise<GetWorkspaceSettingsOutput> {
  return { status: 200, body: await get(ctx.deps, actorFrom(ctx)) };
}

export async function updateWorkspaceSettings(input: UpdateWorkspaceSettingsInput, ctx: HandlerContext): Promise<UpdateWorkspaceSettingsOutput> {
  return { status: 200, body: await update(ctx.deps, actorFrom(ctx), input.body) };
}
