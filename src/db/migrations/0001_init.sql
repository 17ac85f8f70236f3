-- Workspaces, users, memberships, invitations, API keys, throttling counters and server secrets.

CREATE TABLE workspaces (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id             text PRIMARY KEY,
  email          text NOT NULL,
  name           text NOT NULL,
  password_hash  text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE memberships (
  workspace_id  text NOT NULL REFERENCES workspaces (id),
  user_id       text NOT NULL REFERENCES users (id),
  role          text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX memberships_user_idx ON memberships (user_id);

CREATE TABLE invitations (
  id           text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  email        text NOT NULL,
  role         text NOT NULL CHECK (role IN ('admin', 'member')),
  token_hash   text NOT NULL UNIQUE,
  invited_by   text NOT NULL REFERENCES users (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  accepted_at  timestamptz
);
CREATE INDEX invitations_workspace_idx ON invitations (workspace_id, created_at);

CREATE TABLE api_keys (
  id            text PRIMARY KEY,
  workspace_id  text NOT NULL REFERENCES workspaces (id),
  name          text NOT NULL,
  prefix        text NOT NULL UNIQUE,
  secret_hash   text NOT NULL,
  scopes        text[] NOT NULL DEFAULT ARRAY['*'],
  created_by    text REFERENCES users (id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX api_keys_workspace_idx ON api_keys (workspace_id, created_at);

-- Fixed-window request counters shared by every instance on this database.
CREATE TABLE rate_limit_counters (
  bucket        text NOT NULL,
  window_start  timestamptz NOT NULL,
  count         integer NOT NULL,
  PRIMARY KEY (bucket, window_start)
);

CREATE TABLE login_failures (
  id         bigserial PRIMARY KEY,
  email      text NOT NULL,
  address    text NOT NULL,
  failed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_lookup_idx ON login_failures (lower(email), address, failed_at);

-- Secrets the service generates for itself when configuration gives none (embedded mode).
CREATE TABLE server_secrets (
  name        text PRIMARY KEY,
  value       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
