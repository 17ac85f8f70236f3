-- Email sequences (src/data/sequences.ts, sequence-sending.ts). A sequence's steps are JSON on its row,
-- versioned by `revision`; an approval names the revision it approved, so an edit voids it. Enrollments
-- put leads in a sequence; each (enrollment, step) has at most one message row, ever (the unique key),
-- which is what "never twice" rests on. A message moves scheduled -> claimed (reserved against the
-- limits by one sender) -> sending (committed just before the provider call) -> sent / failed; a sender
-- that dies leaves `claimed` (never handed over: put back) or `sending` (perhaps delivered: `uncertain`,
-- never retried).
create table workspace_settings (
  workspace_id text primary key references workspaces (id),
  postal_address text,
  require_human_approval boolean not null default true,
  updated_at timestamptz not null
);

create table sequences (
  id text primary key,
  workspace_id text not null references workspaces (id),
  name text not null,
  status text not null check (status in ('draft', 'pending_approval', 'approved', 'active', 'paused', 'completed', 'archived')),
  revision integer not null default 1,
  sender_connector_id text,
  schedule jsonb not null,
  daily_limit integer not null,
  steps jsonb not null,
  -- The last decision: {decision, revision, by, at, note}; null when none or voided by an edit.
  approval jsonb,
  pause_reason text,
  created_by text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  launched_at timestamptz
);
create index sequences_workspace_created on sequences (workspace_id, created_at desc, id desc);
create index sequences_active on sequences (status) where status = 'active';

create table sequence_enrollments (
  id text primary key,
  workspace_id text not null references workspaces (id),
  sequence_id text not null references sequences (id) on delete cascade,
  -- Null once the lead is deleted (its personal data goes; the enrollment stops).
  lead_id text references leads (id) on delete set null,
  status text not null check (status in ('active', 'completed', 'stopped', 'removed')),
  next_step integer,
  next_due_at timestamptz,
  stop_reason text,
  enrolled_at timestamptz not null,
  updated_at timestamptz not null,
  unique (sequence_id, lead_id)
);
create index sequence_enrollments_page on sequence_enrollments (sequence_id, enrolled_at, id);
create index sequence_enrollments_due on sequence_enrollments (next_due_at) where status = 'active' and next_due_at is not null;
create index sequence_enrollments_lead on sequence_enrollments (lead_id) where status = 'active';

create table sequence_messages (
  id text primary key,
  workspace_id text not null references workspaces (id),
  sequence_id text not null references sequences (id) on delete cascade,
  enrollment_id text not null references sequence_enrollments (id) on delete cascade,
  lead_id text references leads (id) on delete set null,
  step integer not null,
  connector_id text not null,
  mode text not null check (mode in ('live', 'sandbox')),
  to_email text,
  subject text,
  status text not null check (status in ('scheduled', 'claimed', 'sending', 'sent', 'failed', 'cancelled', 'uncertain')),
  scheduled_at timestamptz not null,
  claim_token text,
  claimed_at timestamptz,
  sending_at timestamptz,
  sent_at timestamptz,
  attempts integer not null default 0,
  provider_message_id text,
  message_id_header text,
  error_code text,
  error_message text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (enrollment_id, step)
);
create index sequence_messages_page on sequence_messages (workspace_id, created_at desc, id desc);
create index sequence_messages_sequence on sequence_messages (sequence_id, status);
create index sequence_messages_claimable on sequence_messages (connector_id, scheduled_at) where status = 'scheduled';
create index sequence_messages_mailbox_day on sequence_messages (connector_id, claimed_at) where status in ('claimed', 'sending', 'sent', 'uncertain');
create index sequence_messages_inflight on sequence_messages (status, claimed_at) where status in ('claimed', 'sending');
