-- Webinars (src/data/webinars.ts, webinar-registrants.ts, webinar-mail.ts). The video lives elsewhere: a
-- webinar keeps its meeting_url and hands each registrant a join link of our own that redirects there.
-- `ical_sequence` is the iCalendar SEQUENCE of the webinar's invitation: it grows on each time change so
-- calendars replace the event they hold (same UID). Every mail a registrant gets is a webinar_mail row
-- whose unique key (registrant, kind, ical_sequence) is what "never sent twice" rests on; reminders use
-- ical_sequence 0, so each registrant gets each reminder at most once whatever the time changes.
create table webinars (
  id text primary key,
  workspace_id text not null references workspaces (id),
  public_id text not null unique,
  title text not null,
  description text not null,
  start_at timestamptz not null,
  duration_minutes integer not null,
  timezone text not null,
  capacity integer,
  meeting_url text not null,
  sender_connector_id text not null,
  status text not null check (status in ('scheduled', 'cancelled')),
  ical_sequence integer not null default 0,
  created_by text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  cancelled_at timestamptz
);
create index webinars_workspace_created on webinars (workspace_id, created_at desc, id desc);

create table webinar_registrants (
  id text primary key,
  workspace_id text not null references workspaces (id),
  webinar_id text not null references webinars (id) on delete cascade,
  lead_id text references leads (id) on delete set null,
  email text not null,
  first_name text,
  last_name text,
  source text not null check (source in ('api', 'page')),
  status text not null check (status in ('registered', 'removed')),
  registered_at timestamptz not null,
  removed_at timestamptz,
  joined_at timestamptz
);
-- One live registration per address; a removed one may register again.
create unique index webinar_registrants_email on webinar_registrants (webinar_id, email) where status = 'registered';
create index webinar_registrants_page on webinar_registrants (webinar_id, registered_at, id);

create table webinar_mail (
  id text primary key,
  workspace_id text not null references workspaces (id),
  webinar_id text not null references webinars (id) on delete cascade,
  registrant_id text not null references webinar_registrants (id) on delete cascade,
  kind text not null check (kind in ('confirmation', 'update', 'cancellation', 'reminder_24h', 'reminder_1h')),
  ical_sequence integer not null,
  status text not null check (status in ('scheduled', 'sending', 'sent', 'failed', 'skipped', 'uncertain')),
  due_at timestamptz not null,
  sending_at timestamptz,
  sent_at timestamptz,
  attempts integer not null default 0,
  to_email text not null,
  provider_message_id text,
  error_code text,
  error_message text,
  created_at timestamptz not null,
  unique (registrant_id, kind, ical_sequence)
);
create index webinar_mail_due on webinar_mail (due_at) where status = 'scheduled';
