-- The admin panel's sessions (src/admin/session-data.ts): a refresh cookie that mints the panel's short JWTs.
-- Only a hash (sha256) of the cookie's token is stored. The token rotates at every refresh; the one it
-- replaced is kept as `previous_hash` so a second tab refreshing at the same moment is still answered, and a
-- replay of it after the grace is taken as theft and ends the session. A session belongs to a membership and
-- dies with it (removing a member deletes its sessions); `password_version` is the user's at sign-in, so
-- changing the password (users.password_version + 1) ends every session started before.
alter table users add column password_version integer not null default 0;

create table admin_sessions (
  id text primary key,
  workspace_id text not null,
  user_id text not null,
  token_hash text not null unique,
  previous_hash text unique,
  rotated_at timestamptz,
  password_version integer not null,
  created_at timestamptz not null,
  last_used_at timestamptz not null,
  expires_at timestamptz not null,
  foreign key (workspace_id, user_id) references memberships (workspace_id, user_id) on delete cascade
);
create index admin_sessions_member on admin_sessions (workspace_id, user_id);
