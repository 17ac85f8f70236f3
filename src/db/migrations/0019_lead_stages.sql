-- Lead stages (src/handlers/leads/lead-stage.ts): where a lead is in the conversation, apart from its
-- suppression `status`. Sending a sequence message moves `new` -> `contacted`, a reply (or an
-- unsubscribe request written in words) moves `new`/`contacted` -> `replied`; the rest is set by people
-- and agents through update_lead_stage. Every change is a `lead.stage_changed` event.
alter table leads
  add column stage text not null default 'new'
    check (stage in ('new', 'contacted', 'replied', 'interested', 'meeting_booked', 'won', 'lost', 'not_interested'));

-- Existing leads get the stage their history shows: `replied` when they ever answered in words
-- (last_replied_at, set by a reply and by an unsubscribe request since 0018), else `contacted` when a
-- sequence message was sent to them, else `new`. No event is recorded for this backfill.
update leads set stage = 'replied' where last_replied_at is not null;
update leads set stage = 'contacted'
where stage = 'new'
  and exists (select 1 from sequence_messages m where m.lead_id = leads.id and m.status = 'sent');

-- Imports write every lead as `new`, and an index on leads is paid per imported row (0012): this one
-- holds only the leads past `new`, so imports do not pay for it. list_leads and export_leads write the
-- stages as literals (leads-data.ts), so the planner proves a filter of later stages uses it: a page of a
-- rare stage reads a few entries (a probe of 300,000 leads on PostgreSQL 15, 10 of them `lost`, with the
-- cached generic plan: 0.04 ms, against 100 ms when the stages were a parameter and every lead was read).
-- A filter with `new` reads leads_workspace_created with the stage as a filter, as the tag filter does.
create index leads_workspace_stage on leads (workspace_id, stage, created_at desc, id desc) where stage <> 'new';
