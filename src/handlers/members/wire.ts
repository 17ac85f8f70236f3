// A member row as the contract shows it: in responses and in the data of its events.
import type { MemberRow } from './memberships-data.ts';

export const memberBody = (m: MemberRow) => ({
  user_id: m.user_id,
  email: m.email,
  name: m.name,
  role: m.role,
  joined_at: m.created_at.toISOString(),
});
