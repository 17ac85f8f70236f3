import { ApiError } from '../../errors.ts';
import type { SignupInput, SignupOutput } from '../../generated/handlers.ts';
import type { HandlerContext } from '../context.ts';
import { normaliseEmail, sessionBody, type UserRow, type WorkspaceRow } from './shape.ts';

const UNIQUE_VIOLATION = '23505';

export async function signup(input: SignupInput, ctx: HandlerContext): Promise<SignupOutput> {
  const { sql, ids, clock, passwords } = ctx.deps;
  const email = normaliseEmail(input.body.email);
  // Hashing checks the length first and throws before any work on an over-long password.
  const passwordHash = await passwords.hashPassword(input.body.password);
  const now = clock.now();
  try {
    const { user, workspace } = await sql.begin(async (tx) => {
      const [workspace] = await tx<WorkspaceRow[]>`
        insert into workspaces (id, name, created_at) values (${ids.make('ws')}, ${input.body.workspace_name}, ${now})
        returning id, name, created_at`;
      const [user] = await tx<UserRow[]>`
        insert into users (id, email, name, password_hash, created_at)
        values (${ids.make('usr')}, ${email}, ${input.body.name}, ${passwordHash}, ${now})
        returning id, email, name, created_at`;
      await tx`insert into memberships (workspace_id, user_id, role, created_at) values (${workspace.id}, ${user.id}, 'owner', ${now})`;
      return { user, workspace };
    });
    return { status: 201, body: await sessionBody(ctx, user, workspace, 'owner') };
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
      throw new ApiError('already_exists', 'An account with this email already exists; log in instead.', {
        errors: [{ pointer: '/email', code: 'already_exists', message: 'an account with this email already exists' }],
      });
    }
    throw error;
  }
}
