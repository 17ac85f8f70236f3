// login: a password checked under the throttle, answered with a signed access token.
import { loginWorkspaceOf } from '../members/memberships-data.ts';
import { findAccountByEmail, updatePasswordHash } from './users-data.ts';
import { normaliseEmail } from '../../auth/normalise-email.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { LoginInput, LoginOutput } from '../../generated/handlers.ts';
import type { HandlerContext } from '../context.ts';

export interface LoginRequest {
  email: string;
  password: string;
  workspaceId?: string;
  /** Failures are throttled per email and client address. */
  clientAddress: string;
}

// One message for unknown email, wrong password and a workspace asked for that is not the account's.
const invalid = () =>
  new ApiError('invalid_credentials', 'The email or password is incorrect.', {
    headers: { 'WWW-Authenticate': 'Bearer' },
  });

/** Checks a password under the throttle and answers a signed access token. */
export async function login(deps: Deps, request: LoginRequest) {
  const { passwords, loginThrottle, jwt } = deps.auth;
  const sql = deps.db.sql;
  const email = normaliseEmail(request.email);
  const state = await loginThrottle.check(email, request.clientAddress);
  if (state.blocked) {
    throw new ApiError('rate_limited', `Too many failed logins; retry after ${state.retryAfterSeconds} seconds.`, {
      headers: { 'Retry-After': String(state.retryAfterSeconds) },
    });
  }
  const account = await findAccountByEmail(sql, email);
  const ok = account
    ? await passwords.verifyPassword(account.password_hash, request.password)
    : await passwords.verifyAgainstDummy(request.password);
  const workspaceId = ok && account ? await loginWorkspaceOf(sql, account.id, request.workspaceId) : undefined;
  // A person removed from their last workspace still has their account: they log in to an account
  // login (no workspace), which can accept an invitation and nothing else. The password was right, so
  // saying so reveals nothing; a workspace asked for by id must still be theirs.
  const accountOnly = ok && !workspaceId && request.workspaceId === undefined;
  if (!account || !ok || (!workspaceId && !accountOnly)) {
    await loginThrottle.recordFailure(email, request.clientAddress);
    throw invalid();
  }
  if (passwords.needsRehash(account.password_hash))
    await updatePasswordHash(sql, account.id, await passwords.hashPassword(request.password));
  return jwt.sign({ userId: account.id, workspaceId: workspaceId ?? null });
}

export async function handle(input: LoginInput, ctx: HandlerContext): Promise<LoginOutput> {
  const { email, password, workspace_id: workspaceId } = input.body;
  return {
    status: 200,
    body: await login(ctx.deps, { email, password, workspaceId, clientAddress: ctx.clientAddress }),
  };
}
