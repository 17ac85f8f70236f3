// PLACEHOLDER (issue 28 foundation): replaced by the helper that builds this operation.
import type { ListRepliesInput, ListRepliesOutput } from '../../generated/handlers.ts';
import type { HandlerContext } from '../context.ts';

export async function handle(_input: ListRepliesInput, _ctx: HandlerContext): Promise<ListRepliesOutput> {
  throw new Error('list-replies is not built yet');
}
