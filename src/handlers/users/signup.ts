// signup: a new workspace and its owner, answered with a login for it.
import { insertMembership } from '../members/memberships-data.ts';
import { insertUser } from './users-data.ts';
import { normaliseEmail } from '../../auth/normalise-email.ts';
import { insertWorkspace } from './workspaces-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { SignupInput, SignupOutput } from '../../generated/handlers.ts';
import type { HandlerContext } from '../context.ts';
// Events carry the resource as the API shows it, so the wire shape is shared with the handler.
import { workspaceBody } from './wire.ts';
import { recordEvent } from '../events/record-event.ts';
import { sessionBody, type JoinedWorkspace } from './session.ts';

export interface SignupRequest {
  email: string;
  password: string;
  name: string;
  workspaceName: string;
}

export const emailTaken = () =>
  new ApiError('already_exists', 'An account with this email already exists; log in instead.', {
    errors: [{ pointer: '/email', code: 'already_exists', message: 'an account with this email already exists' }],
  });

/**
 * Creates a workspace and its owner. Public: the REST signup and the operator CLI's
 * create-workspace both run this; only the REST answer adds a login.
 */
export async function signup(deps: Deps, request: SignupRequest): Promise<JoinedWorkspace> {
  // Hashing checks the length first and throws before any work on an over-long password.
  const passwordHash = await deps.auth.passwords.hashPassword(request.password);
  const now = deps.clock.now();
  return deps.db.sql.begin(async (tx) => {
    const workspace = await insertWorkspace(tx, deps.ids, { name: request.workspaceName, now });
    const user = await insertUser(tx, deps.ids, {
      email: normaliseEmail(request.email),
      name: request.name,
      passwordHash,
      now,
    });
    if (!user) throw emailTaken();
    await insertMembership(tx, workspace.id, { userId: user.id, role: 'owner', now });
    await recordEvent(
      deps,
      tx,
      workspace.id,
      { type: 'user', id: user.id },
      'workspace.created',
      workspaceBody(workspace),
    );
    return { user, workspace, role: 'owner' as const };
  });
}

export async function handle(input: SignupInput, ctx: HandlerContext): Promise<SignupOutput> {
  const { email, password, name, workspace_name: workspaceName } = input.body;
  const joined = await signup(ctx.deps, { email, password, name, workspaceName });
  return { status: 201, body: await sessionBody(ctx.deps, joined) };
}
