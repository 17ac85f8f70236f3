// change_password: a person replaces their password after proving the current one, under the login throttle.
// The new password_version ends their admin panel sessions; bearer JWTs already issued live out their minutes.
import { findAccountByEmail, findUser, replacePassword } from './users-data.ts';
import { checkPasswordLength } from '../../auth/passwords.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import type { ChangePasswordInput, ChangePasswordOutput } from '../../generated/handlers.ts';
import { requirePrincipal, type HandlerContext } from '../context.ts';

export interface ChangePasswordRequest {
  userId: string;
  currentPassword: string;
  newPassword: string;
  /** Wrong current passwords are throttled per email and client address, as login's are. */
  clientAddress: string;
}

// Not 401: the caller's credential is fine, and a client that signs out on 401 must not do so on a typo.
const wrongPassword = () =>
  new ApiError('unprocessable', 'The current password is incorrect.', {
    errors: [{ pointer: '/current_password', code: 'incorrect', message: 'is not the current password' }],
  });

/** The hasher's length errors name `password`; here they point at the field the caller sent. */
async function atField<T>(pointer: string, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ApiError) || !error.errors) throw error;
    const errors = error.errors.map((e) => ({ pointer, code: e.code, message: e.message }));
    throw new ApiError(error.code, error.message.replace('The password', `The ${pointer.slice(1)}`), { errors });
  }
}

export async function changePassword(deps: Deps, request: ChangePasswordRequest): Promise<void> {
  const { passwords, loginThrottle } = deps.auth;
  const sql = deps.db.sql;
  // Before any work or throttle count: a new password out of bounds is the caller's mistake, not a guess.
  await atField('/new_password', () => checkPasswordLength(request.newPassword));
  const user = await findUser(sql, request.userId);
  const account = user && (await findAccountByEmail(sql, user.email));
  if (!user || !account) throw new ApiError('unauthorized', 'The account no longer exists.');
  const state = await loginThrottle.check(user.email, request.clientAddress);
  if (state.blocked) {
    throw new ApiError('rate_limited', `Too many failed attempts; retry after ${state.retryAfterSeconds} seconds.`, {
      headers: { 'Retry-After': String(state.retryAfterSeconds) },
    });
  }
  const verified = atField('/current_password', () =>
    passwords.verifyPassword(account.password_hash, request.currentPassword),
  );
  if (!(await verified)) {
    await loginThrottle.recordFailure(user.email, request.clientAddress);
    throw wrongPassword();
  }
  await replacePassword(sql, user.id, await passwords.hashPassword(request.newPassword));
}

export async function handle(input: ChangePasswordInput, ctx: HandlerContext): Promise<ChangePasswordOutput> {
  const principal = requirePrincipal(ctx);
  if (principal.kind !== 'jwt')
    throw new ApiError(
      'forbidden',
      "Only a person's own login (a JWT from login) can change their password, not an API key.",
    );
  const { current_password: currentPassword, new_password: newPassword } = input.body;
  await changePassword(ctx.deps, {
    userId: principal.userId,
    currentPassword,
    newPassword,
    clientAddress: ctx.clientAddress,
  });
  return { status: 204 };
}
