-- Two questions the sender asks as it sends, answered from an index that holds only the rows they concern, so
-- their cost stays with the answer and does not grow with everything ever sent.
--
-- Whether a sequence has an active enrollment left, after every group of messages (completeSequenceIfDone).
-- PostgreSQL walked the sequence's enrollments past the finished ones to find one, or, with a generic plan,
-- every active enrollment of every sequence.
create index sequence_enrollments_active on sequence_enrollments (sequence_id) where status = 'active';

-- How many of a sequence's messages count against its daily limit today, at every claim
-- (countSequenceSendsSince). The only index with claimed_at leads with the mailbox, so PostgreSQL read all of
-- it: every message any mailbox of any workspace had sent, 4 ms a claim at 100,000 messages (EXPLAIN ANALYZE).
create index sequence_messages_sequence_day on sequence_messages (sequence_id, claimed_at)
  where status in ('claimed', 'sending', 'sent', 'uncertain');
