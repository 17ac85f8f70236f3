// What leads sent back, newest first. With `wait_seconds`, a page that would be empty waits for the sync to
// record something (it calls resourceWatch.changed(`replies:<workspace>`)) and answers as soon as it does:
// an agent passes `since` (the last received_at it saw) and long-polls for the next reply.
import type { ListRepliesInput, ListRepliesOutput } from '../../generated/handlers.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { listPage, type ListPage } from '../list-page.ts';
import { cursorScope } from '../pagination.ts';
import { listInbound, type InboundRow } from './replies-data.ts';
import { replyBody } from './reply-wire.ts';

export type ListRepliesRequest = ListRepliesInput['query'];
type ReplyPage = ListPage<ReturnType<typeof replyBody>>;

/** The key the reply sync wakes when it records something in the workspace. */
export const repliesWatchKey = (workspaceId: string) => `replies:${workspaceId}`;

const byReceipt = (row: InboundRow) => ({ at: row.received_at.toISOString(), id: row.id });

function readPage(deps: Deps, actor: Actor, request: ListRepliesRequest): Promise<ReplyPage> {
  return listPage(request, {
    scope: cursorScope(deps.auth, 'list_replies', actor.workspaceId),
    fetch: ({ limit, after }) =>
      listInbound(deps.db.sql, actor.workspaceId, {
        sequenceId: request.sequence_id,
        leadId: request.lead_id,
        classifications: request.classification ?? [],
        since: request.since,
        before: after,
        limit,
      }),
    toItem: replyBody,
    position: byReceipt,
  });
}

export async function listReplies(
  deps: Deps,
  actor: Actor,
  request: ListRepliesRequest,
  signal?: AbortSignal,
): Promise<ReplyPage> {
  const watch = deps.resourceWatch;
  const key = repliesWatchKey(actor.workspaceId);
  const deadline = Date.now() + (request.wait_seconds ?? 0) * 1000;
  if (deadline > Date.now()) await watch.ready();
  let page = await readPage(deps, actor, request);
  while (page.data.length === 0) {
    const left = deadline - Date.now();
    if (left <= 0 || watch.ended || signal?.aborted) break;
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const woken = watch.wait(key, Math.min(left, deps.config.operationWaitRecheckMs), stop.signal);
    try {
      // Read again after the wake-up is registered: a reply recorded since the read above is in this one.
      page = await readPage(deps, actor, request);
      if (page.data.length > 0) break;
      await woken;
      page = await readPage(deps, actor, request);
    } finally {
      stop.abort();
      signal?.removeEventListener('abort', onAbort);
    }
  }
  return page;
}

export async function handle(input: ListRepliesInput, ctx: HandlerContext): Promise<ListRepliesOutput> {
  return { status: 200, body: await listReplies(ctx.deps, actorFrom(ctx), input.query, ctx.signal) };
}
