// Users and workspaces as the contract shows them: in responses and in the data of their events.
import type { UserRow } from './users-data.ts';
import type { WorkspaceRow } from './workspaces-data.ts';

export const userBody = (u: UserRow) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  created_at: u.created_at.toISOString(),
});
export const workspaceBody = (w: WorkspaceRow) => ({ id: w.id, name: w.name, created_at: w.created_at.toISOString() });
