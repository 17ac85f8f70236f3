-- Operations (src/data/operations.ts): one row per piece of long work a request started, followed
-- by get_operation. The job that does the work moves it queued -> running -> succeeded | failed |
-- cancelled; cancel_requested_at asks a running job to stop (it checks and stops itself).
create table operations (
  id text primary key,
  workspace_id text not null references workspaces (id),
  type text not null,
  status text not null check (status in ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  progress_done integer not null default 0,
  progress_total integer,
  resource_type text,
  resource_id text,
  -- The problem (RFC 9457) a failed operation ended with.
  error jsonb,
  -- The pg-boss queue and job doing the work, so a job that died for good fails its operation.
  job_queue text,
  job_id text,
  actor jsonb not null,
  cancel_requested_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  finished_at timestamptz
);
create index operations_workspace_created on operations (workspace_id, created_at desc, id desc);
create index operations_unfinished on operations (updated_at) where status in ('queued', 'running');

-- Webhook endpoints (src/data/webhooks.ts). The signing secret is stored sealed (AES-256-GCM under a
-- key derived from the server secret, bound to the endpoint id) and shown once, at creation.
create table webhook_endpoints (
  id text primary key,
  workspace_id text not null references workspaces (id),
  url text not null,
  description text not null default '',
  event_types text[] not null,
  secret_sealed bytea not null,
  status text not null check (status in ('enabled', 'disabled')),
  disabled_reason text,
  -- Failed attempts since the last success, and when that run of failures began.
  failure_count integer not null default 0,
  failing_since timestamptz,
  last_success_at timestamptz,
  created_by text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  deleted_at timestamptz
);
create index webhook_endpoints_workspace on webhook_endpoints (workspace_id, created_at desc, id desc) where deleted_at is null;

-- One delivery per (endpoint, event), retried on a schedule of about a day; `payload` is the exact
-- body sent at every attempt, `message_id` the webhook-id header receivers deduplicate on.
create table webhook_deliveries (
  id text primary key,
  workspace_id text not null references workspaces (id),
  endpoint_id text not null references webhook_endpoints (id),
  event_id text,
  event_type text not null,
  message_id text not null,
  payload text not null,
  status text not null check (status in ('pending', 'succeeded', 'failed', 'cancelled')),
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  last_status_code integer,
  last_error text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (endpoint_id, message_id)
);
create index webhook_deliveries_endpoint on webhook_deliveries (workspace_id, endpoint_id, created_at desc, id desc);
