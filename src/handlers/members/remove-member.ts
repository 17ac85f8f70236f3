import type { RemoveMemberInput, RemoveMemberOutput } from '../../generated/handlers.ts';
import { removeMember as remove } from './remove-member-logic.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function removeMember(input: RemoveMemberInput, ctx: HandlerContext): Promise<RemoveMemberOutput> {
  await remove(ctx.deps, actorFrom(ctx), input.path.user_id);
  return { status: 204 };
}
