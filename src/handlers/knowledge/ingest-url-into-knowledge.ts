import type { IngestUrlIntoKnowledgeInput, IngestUrlIntoKnowledgeOutput } from '../../generated/handlers.ts';
import { insertSource } from './knowledge-data.ts';
import type { OperationRow } from '../operations/operations-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { checkUserUrl } from '../../outbound/user-url.ts';
import type { Actor } from '../actor.ts';
import { actorFrom, type HandlerContext } from '../context.ts';
import { startOperation } from '../operations/operation-job.ts';
import { operationBody, operationPath } from '../operations/wire.ts';
import { ingestUrlIntoKnowledgeJob } from './ingest-job.ts';

export interface IngestUrlIntoKnowledgeRequest {
  url: string;
  maxPages?: number;
  includePaths?: string[];
  excludePaths?: string[];
}

const PATH_PREFIX = /^\/[^\s]*$/;

function checkPaths(paths: string[] | undefined, field: string): string[] {
  const list = [...new Set(paths ?? [])];
  const wrong = list.find((p) => !PATH_PREFIX.test(p));
  if (wrong !== undefined) {
    throw new ApiError('validation_failed', `"${wrong}" is not a path prefix (it starts with "/" and has no spaces).`, {
      errors: [{ field, code: 'invalid_path_prefix', message: 'a path starting with /' }],
    });
  }
  return list;
}

/** Creates the source (queued) and the operation that fetches it, in one transaction: 202 with the operation. */
export async function ingestUrlIntoKnowledge(
  deps: Deps,
  actor: Actor,
  request: IngestUrlIntoKnowledgeRequest,
): Promise<OperationRow> {
  const url = checkUserUrl(request.url, { allowPrivate: deps.config.outbound.allowPrivate, field: 'url' });
  const maxPages = request.maxPages ?? 1;
  const includePaths = checkPaths(request.includePaths, 'include_paths');
  const excludePaths = checkPaths(request.excludePaths, 'exclude_paths');
  const { row, afterCommit } = await deps.db.sql.begin(async (tx) => {
    const source = await insertSource(tx, actor.workspaceId, deps.ids, {
      url: url.href,
      maxPages,
      includePaths,
      excludePaths,
      createdBy: actor.userId,
      now: deps.clock.now(),
    });
    return startOperation(deps, tx, actor, {
      kind: ingestUrlIntoKnowledgeJob,
      input: { source_id: source.id },
      resource: { type: 'knowledge_source', id: source.id },
      progressTotal: maxPages,
    });
  });
  afterCommit();
  return row;
}

export async function handle(
  input: IngestUrlIntoKnowledgeInput,
  ctx: HandlerContext,
): Promise<IngestUrlIntoKnowledgeOutput> {
  const { url, max_pages: maxPages, include_paths: includePaths, exclude_paths: excludePaths } = input.body;
  const row = await ingestUrlIntoKnowledge(ctx.deps, actorFrom(ctx), { url, maxPages, includePaths, excludePaths });
  return { status: 202, body: operationBody(row), headers: { Location: operationPath(row.id) } };
}
