import { ApiError } from '../../errors.ts';
import type { LoginInput, LoginOutput } from '../../generated/handlers.ts';
import type { HandlerContext } from '../context.ts';
import { normaliseEmail } from './shape.ts';

interface Account {
  id: string;
  password_hash: string;
}

// One message for unknown email, wrong password and lost membership, so none can be told apart.
const invalid = () => new ApiError('invalid_credentials', 'The email or password is incorrect.', { headers: { 'WWW-Authenticate': 'Bearer' } });

async function workspaceFor(ctx: HandlerContext, userId: string, wanted: string | undefined): Promise<string | undefined> {
  const rows = await ctx.deps.sql<{ workspace_id: string }[]>`
    select workspace_id from memberships where user_id = ${userId}
      and (${wanted ?? null}::text is null or workspace_id = ${wanted ?? null})
    order by created_at, workspace_id limit 1`;
  return rows[0]?.workspace_id;
}

export async function login(input: LoginInput, ctx: HandlerContext): Promise<LoginOutput> {
  const { sql, passwords, loginThrottle, jwt } = ctx.deps;
  const email = normaliseEmail(input.body.email);
  const password = input.body.password;
  const state = await loginThrottle.check(email, ctx.clientAddress);
  if (state.blocked) {
    throw new ApiError('rate_limited', `Too many failed logins; retry after ${state.retryAfterSeconds} seconds.`, {
      headers: { 'Retry-After': String(state.retryAfterSeconds) },
    });
  }
  const [account] = await sql<Account[]>`select id, password_hash from users where lower(email) = lower(${email})`;
  const ok = account ? await passwords.verifyPassword(account.password_hash, password) : await passwords.verifyAgainstDummy(password);
  const workspaceId = ok && account ? await workspaceFor(ctx, account.id, input.body.workspace_id) : undefined;
  if (!account || !ok || !workspaceId) {
    await loginThrottle.recordFailure(email, ctx.clientAddress);
    throw invalid();
  }
  if (passwords.needsRehash(account.password_hash)) {
    const rehashed = await passwords.hashPassword(password);
    await sql`update users set password_hash = ${rehashed} where id = ${account.id}`;
  }
  return { status: 200, body: await jwt.sign({ userId: account.id, workspaceId }) };
}
