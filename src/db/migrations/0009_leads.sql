-- Leads (src/data/leads.ts): one row per person, unique by normalised email in a workspace. Imports
-- (lead_imports) write leads in batches, each batch in one transaction with the import's counts and
-- its checkpoint (rows_done), so a crashed import resumes where the last batch committed and every
-- row is counted once. Suppressions keep a hash of every address that must not be emailed again
-- (unsubscribed, bounced, do-not-contact, deleted), even after the lead itself is gone.
create table lead_imports (
  id text primary key,
  workspace_id text not null references workspaces (id),
  status text not null check (status in ('queued', 'processing', 'completed', 'completed_with_errors', 'failed', 'cancelled')),
  source text not null check (source in ('rows', 'csv', 'csv_url')),
  source_url text,
  on_conflict text not null check (on_conflict in ('skip', 'update')),
  column_map jsonb not null default '{}',
  tags text[] not null default '{}',
  total integer not null default 0,
  created integer not null default 0,
  updated integer not null default 0,
  skipped_duplicate integer not null default 0,
  invalid integer not null default 0,
  -- Rows read and written so far: where a resumed import starts again.
  rows_done integer not null default 0,
  error_message text,
  operation_id text,
  created_by text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  finished_at timestamptz
);
create index lead_imports_workspace on lead_imports (workspace_id, created_at desc, id desc);

-- Inline rows or CSV too large to answer at once, kept for the import's job.
create table lead_import_payloads (
  import_id text primary key references lead_imports (id) on delete cascade,
  workspace_id text not null references workspaces (id),
  content text not null
);

create table lead_import_errors (
  import_id text not null references lead_imports (id) on delete cascade,
  workspace_id text not null references workspaces (id),
  row integer not null,
  seq integer not null,
  line integer,
  "column" text,
  value text,
  code text not null,
  message text not null,
  primary key (import_id, row, seq)
);

create table leads (
  id text primary key,
  workspace_id text not null references workspaces (id),
  email text not null,
  first_name text,
  last_name text,
  company text,
  title text,
  phone text,
  website text,
  linkedin_url text,
  timezone text,
  tags text[] not null default '{}',
  custom_fields jsonb not null default '{}',
  status text not null check (status in ('active', 'unsubscribed', 'bounced', 'do_not_contact')),
  source_import_id text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (workspace_id, email)
);
create index leads_workspace_created on leads (workspace_id, created_at desc, id desc);
create index leads_workspace_tags on leads using gin (tags);
create index leads_workspace_import on leads (workspace_id, source_import_id);

create table lead_suppressions (
  workspace_id text not null references workspaces (id),
  -- sha256 of the normalised address: a deleted person's address is not kept, only this.
  email_hash text not null,
  reason text not null check (reason in ('unsubscribed', 'bounced', 'do_not_contact', 'deleted')),
  created_at timestamptz not null,
  primary key (workspace_id, email_hash)
);

create table lead_exports (
  id text primary key,
  workspace_id text not null references workspaces (id),
  status text not null check (status in ('queued', 'processing', 'ready', 'failed')),
  filters jsonb not null default '{}',
  row_count integer not null default 0,
  operation_id text,
  created_by text,
  created_at timestamptz not null,
  finished_at timestamptz
);

-- The export's CSV, in parts written in order, streamed back by the download.
create table lead_export_parts (
  export_id text not null references lead_exports (id) on delete cascade,
  part integer not null,
  content text not null,
  primary key (export_id, part)
);
