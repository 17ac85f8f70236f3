-- Outreach analytics (src/handlers/analytics/): the counted messages, those the provider accepted or refused
-- at once as a bounce, by the time of their send, for a sequence and for the whole workspace. The expression
-- and the predicate are written as the queries write them, so the planner can use these partial indexes.
create index sequence_messages_analytics_sequence on sequence_messages (sequence_id, (coalesce(sent_at, sending_at)))
  where status = 'sent' or (status = 'failed' and error_code = 'bounced');
create index sequence_messages_analytics_workspace on sequence_messages (workspace_id, (coalesce(sent_at, sending_at)))
  where status = 'sent' or (status = 'failed' and error_code = 'bounced');
