-- Knowledge (src/data/knowledge.ts): sources ingested from URLs and their chunks, indexed for full-text
-- search. A refresh writes its chunks under the next `generation` and switches the source to it in one
-- transaction, so a search (which only reads the source's current generation) never sees half-old,
-- half-new content, and a failed refresh leaves the last good generation in place.
create table knowledge_sources (
  id text primary key,
  workspace_id text not null references workspaces (id),
  url text not null,
  title text,
  status text not null check (status in ('queued', 'fetching', 'ready', 'failed')),
  max_pages integer not null,
  include_paths text[] not null default '{}',
  exclude_paths text[] not null default '{}',
  generation integer not null default 0,
  pages_fetched integer not null default 0,
  chunk_count integer not null default 0,
  last_error text,
  fetched_at timestamptz,
  created_by text,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index knowledge_sources_workspace on knowledge_sources (workspace_id, created_at desc, id desc);

create table knowledge_chunks (
  id text primary key,
  workspace_id text not null references workspaces (id),
  source_id text not null references knowledge_sources (id) on delete cascade,
  generation integer not null,
  page_url text not null,
  page_title text,
  heading_path text[] not null default '{}',
  -- The heading path as one string, for the index (array_to_string is not immutable).
  headings text not null default '',
  position integer not null,
  text text not null,
  -- Title and headings weigh more than the body: a query naming a section finds it first.
  search tsvector generated always as (
    setweight(to_tsvector('english', coalesce(page_title, '')), 'A') ||
    setweight(to_tsvector('english', headings), 'B') ||
    setweight(to_tsvector('english', text), 'C')
  ) stored
);
create index knowledge_chunks_search on knowledge_chunks using gin (search);
create index knowledge_chunks_source on knowledge_chunks (workspace_id, source_id, generation, position, id);
