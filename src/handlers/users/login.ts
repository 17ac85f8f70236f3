import type { LoginInput, LoginOutput } from '../../generated/handlers.ts';
import { login as checkPassword } from './login-logic.ts';
import type { HandlerContext } from '../context.ts';

export async function login(input: LoginInput, ctx: HandlerContext): Promise<LoginOutput> {
  const { email, password, workspace_id: workspaceId } = input.body;
  return { status: 200, body: await checkPassword(ctx.deps, { email, password, workspaceId, clientAddress: ctx.clientAddress }) };
}
