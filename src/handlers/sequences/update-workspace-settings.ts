// Changes the sending settings (admins). Turning off human approval of sequences is itself a person's
// decision: an agent or an API key cannot make it.
import type { UpdateWorkspaceSettingsInput, UpdateWorkspaceSettingsOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { isPerson, requireAdmin, type Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';
import { settingsView, type SettingsView } from './get-workspace-settings.ts';
import { findWorkspaceSettings, saveWorkspaceSettings } from './sequences-data.ts';

export async function updateWorkspaceSettings(
  deps: Deps,
  actor: Actor,
  patch: { postal_address?: string | null; require_human_approval?: boolean },
): Promise<SettingsView> {
  requireAdmin(actor);
  if (patch.require_human_approval === false && !isPerson(actor)) {
    throw new ApiError(
      'approval_requires_human',
      'Only a person signed in with their own login (not an agent or an API key) can turn off human approval of sequences.',
    );
  }
  const postal = patch.postal_address === undefined ? undefined : patch.postal_address?.trim() || null;
  const row = await deps.db.sql.begin(async (tx) => {
    const current = await findWorkspaceSettings(tx, actor.workspaceId);
    const next = {
      postal_address: postal === undefined ? current.postal_address : postal,
      require_human_approval: patch.require_human_approval ?? current.require_human_approval,
    };
    const saved = await saveWorkspaceSettings(tx, actor.workspaceId, next, deps.clock.now());
    await recordEvent(deps, tx, actor.workspaceId, eventActor(actor), 'workspace.settings_updated', { ...saved });
    return saved;
  });
  return settingsView(deps, row);
}

export async function handle(
  input: UpdateWorkspaceSettingsInput,
  ctx: HandlerContext,
): Promise<UpdateWorkspaceSettingsOutput> {
  return { status: 200, body: await updateWorkspaceSettings(ctx.deps, actorFrom(ctx), input.body) };
}
