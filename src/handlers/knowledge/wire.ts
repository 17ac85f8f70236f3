// Knowledge sources, chunks and search hits as the contract shows them.
import type { ChunkRow, SearchHit } from './knowledge-chunks-data.ts';
import type { SourceRow } from './knowledge-data.ts';

export const sourceBody = (s: SourceRow) => ({
  id: s.id,
  url: s.url,
  title: s.title,
  status: s.status,
  max_pages: s.max_pages,
  include_paths: [...s.include_paths],
  exclude_paths: [...s.exclude_paths],
  pages_fetched: s.pages_fetched,
  chunks: s.chunk_count,
  last_error: s.last_error,
  fetched_at: s.fetched_at ? s.fetched_at.toISOString() : null,
  created_at: s.created_at.toISOString(),
  updated_at: s.updated_at.toISOString(),
});

export const chunkBody = (c: ChunkRow) => ({
  id: c.id,
  source_id: c.source_id,
  page_url: c.page_url,
  page_title: c.page_title,
  heading_path: [...c.heading_path],
  position: c.position,
  text: c.text,
});

export const hitBody = (h: SearchHit) => ({
  chunk_id: h.id,
  source_id: h.source_id,
  page_url: h.page_url,
  page_title: h.page_title,
  heading_path: [...h.heading_path],
  snippet: h.snippet,
  rank: Number(h.rank),
});
