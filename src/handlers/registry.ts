// Explicit registration of every operation's handler; tsc fails here when one is missing.
import type { Handlers } from '../generated/handlers.ts';
import { createApiKey } from './api-keys/create-api-key.ts';
import { listApiKeys } from './api-keys/list-api-keys.ts';
import { revokeApiKey } from './api-keys/revoke-api-key.ts';
import type { HandlerContext } from './context.ts';
import { listEvents } from './events/list-events.ts';
import { acceptInvitation } from './members/accept-invitation.ts';
import { acceptInvitationAsMe } from './members/accept-invitation-as-me.ts';
import { inviteMember } from './members/invite-member.ts';
import { listMembers } from './members/list-members.ts';
import { removeMember } from './members/remove-member.ts';
import { updateMemberRole } from './members/update-member-role.ts';
import { getHealth } from './system/get-health.ts';
import { getMe } from './users/get-me.ts';
import { login } from './users/login.ts';
import { signup } from './users/signup.ts';

export const handlers: Handlers<HandlerContext> = {
  get_health: getHealth,
  signup,
  login,
  get_me: getMe,
  list_members: listMembers,
  update_member_role: updateMemberRole,
  remove_member: removeMember,
  invite_member: inviteMember,
  accept_invitation: acceptInvitation,
  accept_invitation_as_me: acceptInvitationAsMe,
  list_api_keys: listApiKeys,
  create_api_key: createApiKey,
  revoke_api_key: revokeApiKey,
  list_events: listEvents,
};
