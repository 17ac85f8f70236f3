-- Every attempt of a webhook delivery (its number, HTTP status, error and time), oldest first, so a person
-- can see how a delivery went and not only its last answer. Appended by recordAttempt; deliveries made
-- before this migration keep only their last attempt in the last_* columns.
alter table webhook_deliveries add column attempt_log jsonb not null default '[]'::jsonb;
