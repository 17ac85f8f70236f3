// The job behind ingest_url_into_knowledge and refresh_knowledge_source: it crawls the source (crawl.ts)
// into its next generation and publishes it, or records why it failed. A failed or cancelled fetch keeps
// the last good content.
import { z } from 'zod';
import { dropStagedChunks, findSource, markFetching, markSourceFailed, publishGeneration } from './knowledge-data.ts';
import { ApiError } from '../../errors.ts';
import { recordEvent } from '../events/record-event.ts';
import { defineOperationJob, OperationCancelled, type OperationJobKind } from '../operations/operation-job.ts';
import { sourceBody } from './wire.ts';
import { crawl } from './crawl.ts';

/** Crawls a knowledge source (ingest_url_into_knowledge, refresh_knowledge_source) into a new generation of chunks. */
export const ingestUrlIntoKnowledgeJob: OperationJobKind<{ source_id: string }> = defineOperationJob({
  name: 'knowledge.ingest',
  type: 'knowledge_ingest',
  input: z.object({ source_id: z.string() }),
  retry: { limit: 2, delaySeconds: 15, backoff: true },
  // 50 pages at the polite pace, each up to its timeout, with room to spare.
  expireInSeconds: 30 * 60,
  async run({ source_id: sourceId }, work, deps) {
    const source = await findSource(deps.db.sql, work.workspaceId, sourceId);
    if (!source) throw new ApiError('not_found', `Knowledge source ${sourceId} was deleted.`);
    const fail = async (reason: string) => {
      const failed = await deps.db.sql.begin(async (tx) => {
        const row = await markSourceFailed(tx, work.workspaceId, sourceId, reason, deps.clock.now());
        if (row)
          await recordEvent(
            deps,
            tx,
            work.workspaceId,
            { type: 'system', id: null },
            'knowledge_source.failed',
            sourceBody(row),
          );
        return row;
      });
      deps.log.info({ source_id: sourceId, reason }, 'knowledge fetch failed');
      return failed;
    };
    try {
      await dropStagedChunks(deps.db.sql, work.workspaceId, sourceId, source.generation);
      await markFetching(deps.db.sql, work.workspaceId, sourceId, deps.clock.now());
      const crawled = await crawl(deps, work, source, source.generation + 1);
      if (crawled.chunks === 0)
        throw new ApiError(
          'knowledge_no_text',
          `No text could be extracted from ${source.url}${crawled.pages > 1 ? ` or the ${crawled.pages - 1} pages it links to` : ''}.`,
        );
      const ready = await deps.db.sql.begin(async (tx) => {
        const row = await publishGeneration(tx, work.workspaceId, sourceId, {
          generation: source.generation + 1,
          title: crawled.title,
          pagesFetched: crawled.pages,
          now: deps.clock.now(),
        });
        if (row)
          await recordEvent(
            deps,
            tx,
            work.workspaceId,
            { type: 'system', id: null },
            'knowledge_source.ready',
            sourceBody(row),
          );
        return row;
      });
      if (!ready) throw new ApiError('not_found', `Knowledge source ${sourceId} was deleted during the fetch.`);
      deps.log.info({ source_id: sourceId, pages: crawled.pages, chunks: ready.chunk_count }, 'knowledge source ready');
      return { resource: { type: 'knowledge_source', id: sourceId } };
    } catch (error) {
      const final = error instanceof ApiError || error instanceof OperationCancelled || work.job.attempt > 2;
      if (final) {
        const reason =
          error instanceof ApiError
            ? error.message
            : error instanceof OperationCancelled
              ? 'The fetch was cancelled.'
              : 'The fetch failed on our side; try again later.';
        await fail(reason).catch((e: unknown) =>
          deps.log.error({ err: e, source_id: sourceId }, 'could not record a failed knowledge fetch'),
        );
      }
      throw error;
    }
  },
});
