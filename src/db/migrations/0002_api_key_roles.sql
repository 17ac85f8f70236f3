-- A key never carries more than its creator currently has. `role` is the most a key may do: what the
-- operator CLI gave it, or its minter's role at mint time (an owner's keys act as admin). The
-- authenticator lowers it further to the creator's current role on every request.
ALTER TABLE api_keys ADD COLUMN role text NOT NULL DEFAULT 'admin' CHECK (role IN ('admin', 'member'));

-- Why a key stopped working: `revoked` by an admin or the operator, or `creator_removed` when the
-- member who minted it left the workspace (their keys are revoked in the same transaction). Null on
-- a revoked key reads as `revoked`.
ALTER TABLE api_keys ADD COLUMN revoked_reason text CHECK (revoked_reason IN ('revoked', 'creator_removed'));
UPDATE api_keys SET revoked_reason = 'revoked' WHERE revoked_at IS NOT NULL;

-- Keys whose creator left before this rule existed stop working now.
UPDATE api_keys k SET revoked_at = now(), revoked_reason = 'creator_removed'
WHERE k.revoked_at IS NULL AND k.created_by IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.workspace_id = k.workspace_id AND m.user_id = k.created_by);

CREATE INDEX api_keys_creator_idx ON api_keys (workspace_id, created_by) WHERE revoked_at IS NULL;
