-- A mailbox's last sends, newest first, for its hard-bounce rate (sequences/mailbox-bounce-rate.ts): sent,
-- uncertain and failed messages (the query keeps the failed ones that bounced).
create index sequence_messages_mailbox_recent on sequence_messages (connector_id, claimed_at desc, id desc)
  where status in ('sent', 'uncertain', 'failed');
