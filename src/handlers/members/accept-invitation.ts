import type { TransactionSql } from 'postgres';
import { ApiError } from '../../errors.ts';
import type { AcceptInvitationInput, AcceptInvitationOutput } from '../../generated/handlers.ts';
import type { HandlerContext } from '../context.ts';
import { sessionBody, type UserRow, type WorkspaceRow } from '../users/shape.ts';
import { hashInvitationToken } from './invitation-token.ts';

interface InvitationRow {
  id: string;
  workspace_id: string;
  email: string;
  role: 'admin' | 'member';
}

const notValid = () => new ApiError('not_found', 'This invitation is unknown, already used or expired; ask an admin for a new one.');

/** An existing account joins with its own password; a new one is created with the given name and password. */
async function joiningUser(tx: TransactionSql, ctx: HandlerContext, email: string, input: AcceptInvitationInput['body'], newHash: string): Promise<UserRow> {
  const [existing] = await tx<(UserRow & { password_hash: string })[]>`
    select id, email, name, created_at, password_hash from users where lower(email) = lower(${email})`;
  if (existing) {
    if (!(await ctx.deps.passwords.verifyPassword(existing.password_hash, input.password))) {
      throw new ApiError('invalid_credentials', 'An account with this email exists; accept with its password.');
    }
    return existing;
  }
  const [user] = await tx<UserRow[]>`
    insert into users (id, email, name, password_hash, created_at)
    values (${ctx.deps.ids.make('usr')}, ${email}, ${input.name}, ${newHash}, ${ctx.deps.clock.now()})
    returning id, email, name, created_at`;
  return user;
}

export async function acceptInvitation(input: AcceptInvitationInput, ctx: HandlerContext): Promise<AcceptInvitationOutput> {
  const { sql, clock, apiKeyPepper, passwords } = ctx.deps;
  const newHash = await passwords.hashPassword(input.body.password);
  const now = clock.now();
  const { user, workspace, role } = await sql.begin(async (tx) => {
    const [invitation] = await tx<InvitationRow[]>`
      select id, workspace_id, email, role from invitations
      where token_hash = ${hashInvitationToken(input.body.token, apiKeyPepper)} and accepted_at is null and expires_at > ${now}
      for update`;
    if (!invitation) throw notValid();
    const user = await joiningUser(tx, ctx, invitation.email, input.body, newHash);
    const joined = await tx`
      insert into memberships (workspace_id, user_id, role, created_at) values (${invitation.workspace_id}, ${user.id}, ${invitation.role}, ${now})
      on conflict do nothing returning 1`;
    if (!joined.length) throw new ApiError('already_exists', 'You are already a member of this workspace.');
    await tx`update invitations set accepted_at = ${now} where id = ${invitation.id}`;
    const [workspace] = await tx<WorkspaceRow[]>`select id, name, created_at from workspaces where id = ${invitation.workspace_id}`;
    return { user, workspace, role: invitation.role };
  });
  return { status: 201, body: await sessionBody(ctx, user, workspace, role) };
}
