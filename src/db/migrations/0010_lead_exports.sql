-- Lead exports (src/data/lead-exports.ts): the export job writes the CSV in parts, each part in one
-- transaction with the export's checkpoint (the last lead written, by created_at and id), so a
-- resumed export continues after the last committed part. The header's custom-field columns are
-- fixed when the export starts. A ready export's parts are kept until expires_at, then swept.
alter table lead_exports drop constraint lead_exports_status_check;
alter table lead_exports add constraint lead_exports_status_check
  check (status in ('queued', 'processing', 'ready', 'failed', 'cancelled', 'expired'));
alter table lead_exports add column snapshot_at timestamptz;
alter table lead_exports add column custom_field_keys text[];
alter table lead_exports add column parts integer not null default 0;
alter table lead_exports add column size_bytes bigint not null default 0;
alter table lead_exports add column after_created_at timestamptz;
alter table lead_exports add column after_id text;
alter table lead_exports add column error_message text;
alter table lead_exports add column expires_at timestamptz;
alter table lead_exports add column updated_at timestamptz;
create index lead_exports_workspace on lead_exports (workspace_id, created_at desc, id desc);
create index lead_exports_expiry on lead_exports (expires_at) where status = 'ready';
