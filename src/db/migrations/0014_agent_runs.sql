-- Runs of store agents (src/data/agent-runs.ts, src/operations/agents/). A run is a job that goes through its
-- agent's steps in order; `state` holds each finished step's result, so a run resumed after a restart (or
-- after a person acted) goes on from the step it stopped at. A run that needs a person waits in
-- `requires_action` with `waiting_for` naming the resource (a connector, a sequence) whose event resumes it.
create table agent_runs (
  id text primary key,
  workspace_id text not null references workspaces (id),
  agent_id text not null,
  agent_slug text not null,
  agent_version text not null,
  status text not null check (status in ('queued', 'running', 'requires_action', 'succeeded', 'failed', 'cancelled')),
  input jsonb not null,
  -- Who started the run, with the rights they had then: the run acts as them.
  actor jsonb not null,
  state jsonb not null default '{}',
  steps jsonb not null,
  step_index integer not null default 0,
  required_action jsonb,
  waiting_for text,
  wait_deadline timestamptz,
  output jsonb,
  notes jsonb not null default '[]',
  error jsonb,
  runner_job text,
  cancel_requested_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  finished_at timestamptz
);
create index agent_runs_workspace_created on agent_runs (workspace_id, created_at desc, id desc);
create index agent_runs_waiting on agent_runs (workspace_id, waiting_for) where status = 'requires_action';
create index agent_runs_unfinished on agent_runs (updated_at) where status in ('queued', 'running', 'requires_action');
