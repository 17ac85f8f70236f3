-- Events (src/data/events.ts): one row per state change, written in the transaction that makes the
-- change. `data` is the resource as the API shows it (never a secret); `actor` is {type, id}.
create table events (
  id text primary key,
  workspace_id text not null references workspaces (id),
  type text not null,
  data jsonb not null,
  actor jsonb not null,
  created_at timestamptz not null
);
create index events_workspace_created on events (workspace_id, created_at, id);
create index events_workspace_type_created on events (workspace_id, type, created_at);
