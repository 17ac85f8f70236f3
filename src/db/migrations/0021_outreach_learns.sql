-- Outreach that learns (issue 30): several mailboxes per sequence with per-mailbox limits, A/B variants of a
-- step, and opt-in open and click tracking.

-- A sequence sends from one or more mailboxes; `sender_connector_id` stays as the first of them. Tracking is
-- off unless asked for. `auto_select_winner` is {metric, min_sends_per_variant, confidence} or null; the
-- winners it picked are kept as VariantDecision objects (one per step at most).
alter table sequences
  add column sender_connector_ids text[] not null default '{}',
  add column tracking jsonb not null default '{"opens": false, "clicks": false}',
  add column auto_select_winner jsonb,
  add column variant_winners jsonb not null default '[]';
update sequences set sender_connector_ids = array[sender_connector_id] where sender_connector_id is not null;

-- Each enrollment is pinned to one mailbox (its thread stays in one inbox): set when enrolled, or when its
-- first message is made if the sequence had no mailbox then.
alter table sequence_enrollments add column connector_id text;

-- The variant a message was written from (1-based; null for a step without variants), chosen when the
-- message is made and never changed by a retry. What the message carried when it was sent: the pixel, the
-- rewritten links (their original URLs, by the index the click token names), and the first human open and
-- click, which is what analytics counts.
alter table sequence_messages
  add column variant integer,
  add column tracked_opens boolean not null default false,
  add column tracked_clicks boolean not null default false,
  add column tracked_links jsonb,
  add column opened_at timestamptz,
  add column clicked_at timestamptz;

-- A mailbox's own limits across all sequences: a daily cap (null: SEQUENCE_MAILBOX_DAILY_CAP), a warm-up
-- ramp {start_per_day, increase_per_day, max_per_day, started_at}, and the hard-bounce rate over its last
-- 100 sends that pauses it (sending_paused_reason `bounce_rate`, or `manual`).
alter table connectors
  add column daily_cap integer,
  add column warmup jsonb,
  add column bounce_rate_threshold real not null default 0.05,
  add column sending_paused_reason text,
  add column sending_paused_at timestamptz;

-- Every fetch of a pixel and every follow of a tracked link, human or not. `machine_reason` says why a
-- hit was not counted as a person's (head_request, too_soon, proxy_prefetch, link_scanner, no_user_agent).
create table tracking_events (
  id text primary key,
  workspace_id text not null references workspaces (id),
  message_id text not null references sequence_messages (id) on delete cascade,
  kind text not null check (kind in ('open', 'click')),
  link_index integer,
  url text,
  machine boolean not null,
  machine_reason text,
  user_agent text,
  created_at timestamptz not null
);
create index tracking_events_message on tracking_events (message_id, kind, created_at);
