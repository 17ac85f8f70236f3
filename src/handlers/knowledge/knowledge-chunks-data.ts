// Reading knowledge_chunks: a source's current generation in order, full-text search and relevance.
// Writing them is part of a fetch (knowledge-data.ts). Tenant rows: the workspace id follows the queryable.
import { query, type Queryable } from '../../db/queryable.ts';

export interface ChunkRow {
  id: string;
  source_id: string;
  page_url: string;
  page_title: string | null;
  heading_path: string[];
  position: number;
  text: string;
}

/** The current generation's chunks of a source in reading order, after `after` (position, id). */
export function listChunks(
  q: Queryable,
  workspaceId: string,
  sourceId: string,
  page: { limit: number; after?: { position: number; id: string } },
): Promise<ChunkRow[]> {
  const sql = query(q);
  const { after } = page;
  return sql<ChunkRow[]>`
    select c.id, c.source_id, c.page_url, nullif(c.page_title, '') as page_title, c.heading_path, c.position, c.text
    from knowledge_chunks c join knowledge_sources s on s.id = c.source_id and s.generation = c.generation
    where c.workspace_id = ${workspaceId} and c.source_id = ${sourceId}
      ${after ? sql`and (c.position, c.id) > (${after.position}, ${after.id})` : sql``}
    order by c.position, c.id
    limit ${page.limit}`;
}

export interface SearchHit extends Omit<ChunkRow, 'position' | 'text'> {
  snippet: string;
  rank: number;
}

/** How a hit's text is highlighted (ts_headline's options): matched words in **, up to two fragments. */
export const SNIPPET_OPTIONS =
  'StartSel=**, StopSel=**, MaxWords=45, MinWords=15, MaxFragments=2, FragmentDelimiter=" … "';

/**
 * Full-text search over the workspace's current chunks: `websearch_to_tsquery` (quotes, -word, or),
 * ranked by `ts_rank_cd` over the weighted vector, the best `limit` then highlighted with `ts_headline`.
 *
 * One statement. The tsquery is computed once (a CTE), so the plan matches through the GIN index and ranks
 * only the matches. Ranking does not join knowledge_sources per match: it takes the best `limit + staged`
 * matches, where `staged` counts the workspace's chunks outside their source's current generation (a fetch
 * in progress, one index probe per source), and only those few are checked against their source. At most
 * `staged` of them can be off-generation, so the best `limit` current chunks are among them, in the same
 * order. The count and the ranking read one snapshot.
 */
export function searchChunks(
  q: Queryable,
  workspaceId: string,
  request: { query: string; sourceIds: string[]; limit: number },
): Promise<SearchHit[]> {
  const sql = query(q);
  const only = request.sourceIds.length ? sql.array(request.sourceIds) : undefined;
  return sql<SearchHit[]>`
    with q as (select websearch_to_tsquery('english', ${request.query}) as tsq),
    ranked as (
      select c.id, c.source_id, c.generation, ts_rank_cd(c.search, q.tsq) as rank
      from knowledge_chunks c, q
      where c.workspace_id = ${workspaceId} and c.search @@ q.tsq ${only ? sql`and c.source_id = any(${only}::text[])` : sql``}
      order by rank desc, c.id
      limit ${request.limit} + (
        select coalesce(sum(off.n), 0) from knowledge_sources s, lateral (
          select (select count(*) from knowledge_chunks x
                  where x.workspace_id = s.workspace_id and x.source_id = s.id and x.generation > s.generation)
               + (select count(*) from knowledge_chunks x
                  where x.workspace_id = s.workspace_id and x.source_id = s.id and x.generation < s.generation) as n
        ) off
        where s.workspace_id = ${workspaceId} ${only ? sql`and s.id = any(${only}::text[])` : sql``})),
    best as (
      select ranked.id, ranked.rank from ranked
      join knowledge_sources s on s.id = ranked.source_id and s.generation = ranked.generation and s.workspace_id = ${workspaceId}
      order by ranked.rank desc, ranked.id
      limit ${request.limit})
    select c.id, c.source_id, c.page_url, nullif(c.page_title, '') as page_title, c.heading_path, best.rank::float8 as rank,
      ts_headline('english', c.text, q.tsq, ${SNIPPET_OPTIONS}) as snippet
    from best join knowledge_chunks c on c.id = best.id, q
    order by best.rank desc, c.id`;
}

/**
 * The workspace's current chunks matching any of `terms` (OR, unlike search's AND), best first, with their
 * whole text: what a writer grounds a draft in. Ties break by id, so the same knowledge gives the same list.
 */
export function relevantChunks(
  q: Queryable,
  workspaceId: string,
  request: { terms: string[]; sourceIds: string[]; limit: number },
): Promise<(ChunkRow & { rank: number })[]> {
  const sql = query(q);
  const words = request.terms.map((t) => t.toLowerCase().replace(/[^a-z0-9]/g, '')).filter(Boolean);
  return sql<(ChunkRow & { rank: number })[]>`
    with q as (select websearch_to_tsquery('english', ${words.join(' or ')}) as tsq)
    select c.id, c.source_id, c.page_url, nullif(c.page_title, '') as page_title, c.heading_path, c.position, c.text,
      ts_rank_cd(c.search, q.tsq)::float8 as rank
    from knowledge_chunks c
    join knowledge_sources s on s.id = c.source_id and s.generation = c.generation and s.workspace_id = c.workspace_id, q
    where c.workspace_id = ${workspaceId} and c.search @@ q.tsq
      ${request.sourceIds.length ? sql`and c.source_id = any(${sql.array(request.sourceIds)}::text[])` : sql``}
    order by rank desc, c.id
    limit ${request.limit}`;
}
