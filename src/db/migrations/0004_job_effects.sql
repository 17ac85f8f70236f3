-- Checkpoints of background jobs' side effects (src/jobs/run-once.ts): one row per
-- (job or idempotency key, step), written in the same transaction as the effect it guards.
create table job_effects (
  key text primary key,
  result jsonb,
  created_at timestamptz not null default now()
);
create index job_effects_created_at on job_effects (created_at);
