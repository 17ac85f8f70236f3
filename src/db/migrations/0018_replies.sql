-- Replies, threads and late bounces (src/handlers/replies/). A Gmail connector with the read_replies
-- capability is synced (mailbox_syncs: where the last sync stopped); each inbound message that belongs to
-- one of our threads is recorded once (unique by the connector and Gmail's message id, whatever syncs run)
-- as an inbound_messages row, classified, and acted on in the transaction that records it. Messages
-- outside our threads are recorded as `ignored` with no headers, so they are never fetched twice.
create table mailbox_syncs (
  connector_id text primary key references connectors (id) on delete cascade,
  workspace_id text not null references workspaces (id),
  -- Gmail's historyId: the next incremental sync lists the history after it.
  history_id text,
  last_synced_at timestamptz,
  last_full_sync_at timestamptz,
  last_error text,
  -- Held by the sync running now (no transaction stays open across provider calls).
  lease_until timestamptz,
  updated_at timestamptz not null
);

alter table sequences
  add column stop_on_reply boolean not null default true,
  add column stop_on_auto_reply boolean not null default false,
  add column auto_reply_pause_days integer not null default 3,
  add column stop_for_company boolean not null default false;

alter table sequence_messages
  add column thread_id text,
  add column reply_state text check (reply_state in ('replied', 'auto_replied', 'bounced', 'unsubscribe_request')),
  add column replied_at timestamptz;
create index sequence_messages_thread on sequence_messages (connector_id, thread_id) where thread_id is not null;
create index sequence_messages_message_id on sequence_messages (connector_id, message_id_header) where message_id_header is not null;
create index sequence_messages_lead on sequence_messages (lead_id, step);

alter table leads add column last_replied_at timestamptz;

create table inbound_messages (
  id text primary key,
  workspace_id text not null references workspaces (id),
  connector_id text not null references connectors (id) on delete cascade,
  provider_message_id text not null,
  thread_id text,
  classification text not null check (classification in ('reply', 'auto_reply', 'bounce', 'unsubscribe_request', 'ignored')),
  -- For a bounce: permanent (5.x.x) or transient (4.x.x), and the DSN status code.
  bounce_type text check (bounce_type in ('permanent', 'transient')),
  bounce_status text,
  message_id_header text,
  in_reply_to text,
  from_email text,
  subject text,
  -- The lead's words, only with the read_reply_text capability.
  text_body text,
  sequence_message_id text references sequence_messages (id) on delete set null,
  sequence_id text references sequences (id) on delete set null,
  enrollment_id text references sequence_enrollments (id) on delete set null,
  lead_id text references leads (id) on delete set null,
  -- What the message did: stopped, paused, suppressed, none.
  effect text,
  received_at timestamptz not null,
  created_at timestamptz not null,
  unique (connector_id, provider_message_id)
);
create index inbound_messages_page on inbound_messages (workspace_id, received_at desc, id desc) where classification <> 'ignored';
create index inbound_messages_lead on inbound_messages (lead_id, received_at) where lead_id is not null;
create index inbound_messages_sequence on inbound_messages (sequence_id, classification) where sequence_id is not null;

-- A reply a person or an agent writes into a lead's conversation. Written through the tool server or an
-- API key while the workspace requires human approval, it waits as `pending_approval` until a person
-- approves it. `sending` is committed before the provider is called; a sender that dies leaves it there,
-- and the sweep turns it `uncertain` (perhaps delivered: never sent again).
create table conversation_replies (
  id text primary key,
  workspace_id text not null references workspaces (id),
  lead_id text references leads (id) on delete set null,
  connector_id text not null,
  mode text not null check (mode in ('live', 'sandbox')),
  thread_id text,
  in_reply_to text,
  references_header text,
  to_email text,
  subject text not null,
  body text not null,
  status text not null check (status in ('pending_approval', 'rejected', 'sending', 'sent', 'failed', 'uncertain')),
  created_by text,
  created_via text not null,
  decided_by text,
  decided_at timestamptz,
  decision_note text,
  provider_message_id text,
  message_id_header text,
  error_code text,
  error_message text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  sending_at timestamptz,
  sent_at timestamptz
);
create index conversation_replies_page on conversation_replies (workspace_id, created_at desc, id desc);
create index conversation_replies_lead on conversation_replies (lead_id, created_at) where lead_id is not null;
create index conversation_replies_sending on conversation_replies (sending_at) where status = 'sending';

-- The sandbox mailbox gets an inbox: inbound messages (made only by a person's "reply as this lead" or
-- the simulate_sandbox_inbound test helper) live beside the sent ones, in threads, with a history id
-- that grows as Gmail's does, so the same sync code finds them through the Gmail-compatible routes.
create sequence sandbox_history_ids;
alter table sandbox_messages
  add column direction text not null default 'sent' check (direction in ('sent', 'inbound')),
  add column thread_id text,
  add column history_id bigint,
  add column labels text[] not null default '{SENT}';
update sandbox_messages set thread_id = id, history_id = nextval('sandbox_history_ids');
alter table sandbox_messages alter column thread_id set not null, alter column history_id set not null;
alter table sandbox_messages alter column history_id set default nextval('sandbox_history_ids');
create index sandbox_messages_mailbox_history on sandbox_messages (workspace_id, account_email, history_id);
create index sandbox_messages_thread on sandbox_messages (workspace_id, thread_id);

-- Steps written before threads existed were approved as separate messages: they stay so (in_thread false).
update sequences set steps = coalesce(
  (select jsonb_agg(elem || '{"in_thread": false}'::jsonb order by ord) from jsonb_array_elements(steps) with ordinality as t(elem, ord)),
  '[]'::jsonb);

-- A sync asked for (sync_connector_mailbox, the minute sweep) and not yet run: the sync's `queued` state.
alter table mailbox_syncs add column requested_at timestamptz;
