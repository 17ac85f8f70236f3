// The workspace's sending settings: the postal address every email's footer carries, whether sequences
// need a person's approval, and the most one mailbox sends in a day (a service setting, shown with them).
import type { GetWorkspaceSettingsInput, GetWorkspaceSettingsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { findWorkspaceSettings, type WorkspaceSettingsRow } from './sequences-data.ts';

export interface SettingsView extends WorkspaceSettingsRow {
  mailbox_daily_cap: number;
}

export const settingsView = (deps: Deps, row: WorkspaceSettingsRow): SettingsView => ({
  ...row,
  mailbox_daily_cap: deps.config.sequences.mailboxDailyCap,
});

export async function getWorkspaceSettings(deps: Deps, actor: Actor): Promise<SettingsView> {
  return settingsView(deps, await findWorkspaceSettings(deps.db.sql, actor.workspaceId));
}

export async function handle(
  _input: GetWorkspaceSettingsInput,
  ctx: HandlerContext,
): Promise<GetWorkspaceSettingsOutput> {
  return { status: 200, body: await getWorkspaceSettings(ctx.deps, actorFrom(ctx)) };
}
