-- Ad campaigns (src/data/ad-campaigns.ts) on a connected meta_ads connector. Money is integer minor
-- units with an ISO currency, never a float. `platform_ids` fills in as the launch job creates each
-- object at the platform ({campaign, ad_set, creative, ad}), so a retried launch continues where it
-- stopped instead of creating anything twice.
create table ad_campaigns (
  id text primary key,
  workspace_id text not null references workspaces (id),
  connector_id text not null references connectors (id),
  name text not null,
  objective text not null,
  status text not null check (status in ('draft', 'launching', 'pending_review', 'active', 'disapproved', 'paused', 'completed', 'archived')),
  mode text not null check (mode in ('live', 'sandbox')),
  daily_budget_minor integer not null check (daily_budget_minor > 0),
  currency text not null,
  start_at timestamptz not null,
  end_at timestamptz,
  targeting jsonb not null,
  creatives jsonb not null,
  ad_account_id text,
  platform_ids jsonb not null default '{}',
  effective_status text,
  -- The disapproval reason, or why the campaign waits (needs_reconnection, rate_limited).
  status_reason text,
  spend_minor bigint not null default 0,
  impressions bigint not null default 0,
  clicks bigint not null default 0,
  synced_at timestamptz,
  created_by text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  launched_at timestamptz
);
create index ad_campaigns_workspace on ad_campaigns (workspace_id, created_at desc, id desc);
create index ad_campaigns_live on ad_campaigns (status) where status in ('launching', 'pending_review', 'active', 'paused');

-- The sandbox ads platform (src/sandbox/meta-provider.ts): what a launch would have created at Meta.
create table sandbox_ad_objects (
  id text primary key,
  workspace_id text not null references workspaces (id),
  grant_id text not null references sandbox_grants (id),
  kind text not null check (kind in ('campaign', 'adset', 'adcreative', 'ad')),
  parent_id text,
  status text not null,
  fields jsonb not null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index sandbox_ad_objects_grant on sandbox_ad_objects (grant_id, created_at);
