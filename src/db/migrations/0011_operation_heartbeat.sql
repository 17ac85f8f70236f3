-- A running operation's job beats here every OPERATION_HEARTBEAT_MS while its worker lives. The
-- recurring sweep hands a running operation whose beat stopped (its worker was killed) back to the
-- queue as a retry, so a restart resumes it within minutes instead of after the job's expiry.
alter table operations add column heartbeat_at timestamptz;
create index operations_running_heartbeat on operations (heartbeat_at) where status = 'running';
