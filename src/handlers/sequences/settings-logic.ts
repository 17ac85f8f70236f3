// The workspace's sending settings: the postal address every email's footer carries, and whether
// sequences need a person's approval. Turning that gate off is itself a person's decision.
import { findWorkspaceSettings, saveWorkspaceSettings, type WorkspaceSettingsRow } from './sequences-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { isPerson, requireAdmin, type Actor } from '../actor.ts';
import { eventActor, recordEvent } from '../events/record-event.ts';

export interface SettingsView extends WorkspaceSettingsRow {
  mailbox_daily_cap: number;
}

export async function getWorkspaceSettings(deps: Deps, actor: Actor): Promise<SettingsView> {
  const row = await findWorkspaceSettings(deps.db.sql, actor.workspaceId);
  return { ...row, mailbox_daily_cap: deps.config.sequences.mailboxDailyCap };
}

export async function updateWorkspaceSettings(deps: Deps, actor: Actor, patch: { postal_address?: string | null; require_human_approval?: boolean }): Promise<SettingsView> {
  requireAdmin(actor);
  if (patch.require_human_approval === false && !isPerson(actor)) {
    throw new ApiError('approval_requires_human', 'Only a person signed in with their own login (not an agent or an API key) can turn off human approval of sequences.');
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
  return { ...row, mailbox_daily_cap: deps.config.sequences.mailboxDailyCap };
}
