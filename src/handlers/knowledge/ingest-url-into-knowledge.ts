import type { IngestUrlIntoKnowledgeInput, IngestUrlIntoKnowledgeOutput } from '../../generated/handlers.ts';
import { ingestUrlIntoKnowledge as ingest } from './ingest-url.ts';
import { operationBody, operationPath } from '../operations/wire.ts';
import { actorFrom, type HandlerContext } from '../context.ts';

export async function ingestUrlIntoKnowledge(input: IngestUrlIntoKnowledgeInput, ctx: HandlerContext): Promise<IngestUrlIntoKnowledgeOutput> {
  const { url, max_pages: maxPages, include_paths: includePaths, exclude_paths: excludePaths } = input.body;
  const row = await ingest(ctx.deps, actorFrom(ctx), { url, maxPages, includePaths, excludePaths });
  return { status: 202, body: operationBody(row), headers: { Location: operationPath(row.id) } };
}
