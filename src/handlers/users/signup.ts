import type { SignupInput, SignupOutput } from '../../generated/handlers.ts';
import { signup as createAccount } from './signup-logic.ts';
import type { HandlerContext } from '../context.ts';
import { sessionBody } from './body.ts';

export async function signup(input: SignupInput, ctx: HandlerContext): Promise<SignupOutput> {
  const { email, password, name, workspace_name: workspaceName } = input.body;
  const joined = await createAccount(ctx.deps, { email, password, name, workspaceName });
  return { status: 201, body: await sessionBody(ctx.deps, joined) };
}
