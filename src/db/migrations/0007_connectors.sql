-- Connectors (src/data/connectors.ts): a workspace's link to an outside account (Gmail), made by an
-- OAuth consent. Tokens are stored sealed (AES-256-GCM with a key that is not in this database,
-- see src/connectors/token-keys.ts) and never leave the service.
create table connectors (
  id text primary key,
  workspace_id text not null references workspaces (id),
  provider text not null,
  mode text not null check (mode in ('live', 'sandbox')),
  status text not null check (status in ('pending_consent', 'connected', 'failed', 'expired', 'revoked')),
  account_email text,
  scopes_requested text[] not null,
  scopes_granted text[] not null default '{}',
  -- The consent link of the flow in progress, and its state's hash (only this state may complete it).
  authorization_url text,
  authorization_expires_at timestamptz,
  pending_state_hash text,
  -- {access_token, refresh_token} sealed, with the key id that sealed them.
  tokens_sealed bytea,
  token_key_id text,
  access_expires_at timestamptz,
  -- Held by the instance refreshing the access token (no transaction stays open across the provider
  -- call); others wait for the new token instead of refreshing too.
  refresh_lease_until timestamptz,
  failure_reason text,
  created_by text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  connected_at timestamptz,
  revoked_at timestamptz
);
create index connectors_workspace on connectors (workspace_id, created_at desc, id desc);

-- One row per consent link: single use, short-lived, bound to the workspace, the user who started it
-- and the connector. Only a hash of the state is stored; the PKCE verifier is sealed.
create table oauth_states (
  state_hash text primary key,
  workspace_id text not null references workspaces (id),
  connector_id text not null references connectors (id),
  user_id text,
  verifier_sealed bytea not null,
  token_key_id text not null,
  redirect_uri text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);

-- The sandbox provider (src/sandbox/): the service playing Google's OAuth server and the Gmail API
-- when no Google client is configured. Grants and tokens as Google would keep them (hashes only).
create table sandbox_grants (
  id text primary key,
  -- The workspace whose connector asked (found from the state at consent), so each workspace sees
  -- only the sandbox mail its own connectors sent.
  workspace_id text not null references workspaces (id),
  account_email text not null,
  scopes text[] not null,
  client_id text not null,
  redirect_uri text not null,
  code_hash text unique,
  code_challenge text not null,
  code_expires_at timestamptz not null,
  code_used_at timestamptz,
  created_at timestamptz not null,
  revoked_at timestamptz
);

create table sandbox_tokens (
  token_hash text primary key,
  grant_id text not null references sandbox_grants (id),
  kind text not null check (kind in ('access', 'refresh')),
  expires_at timestamptz,
  created_at timestamptz not null,
  revoked_at timestamptz
);
create index sandbox_tokens_grant on sandbox_tokens (grant_id);

create table sandbox_messages (
  id text primary key,
  workspace_id text not null references workspaces (id),
  grant_id text not null references sandbox_grants (id),
  account_email text not null,
  raw text not null,
  message_id_header text,
  from_header text,
  to_header text,
  subject text,
  text_body text,
  html_body text,
  created_at timestamptz not null
);
create index sandbox_messages_workspace on sandbox_messages (workspace_id, created_at desc, id desc);
