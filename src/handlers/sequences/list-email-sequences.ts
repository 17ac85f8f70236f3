import type { ListEmailSequencesInput, ListEmailSequencesOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { byCreation, listPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { viewSequences } from './sequence-record.ts';
import { listSequences } from './sequences-data.ts';
import { sequenceBody } from './wire.ts';

export type ListEmailSequencesRequest = ListEmailSequencesInput['query'];

/** The workspace's sequences, newest first, with their stats. */
export function listEmailSequences(deps: Deps, actor: Actor, request: ListEmailSequencesRequest) {
  const sql = deps.db.sql;
  return listPage(request, {
    scope: cursorScope(deps.auth, 'list_email_sequences', actor.workspaceId),
    fetch: async ({ limit, after }) =>
      viewSequences(
        deps,
        sql,
        actor.workspaceId,
        await listSequences(sql, actor.workspaceId, { statuses: request.status ?? [], before: after, limit }),
      ),
    toItem: sequenceBody,
    position: (view) => byCreation(view.row),
  });
}

export async function handle(input: ListEmailSequencesInput, ctx: HandlerContext): Promise<ListEmailSequencesOutput> {
  return { status: 200, body: await listEmailSequences(ctx.deps, actorFrom(ctx), input.query) };
}
