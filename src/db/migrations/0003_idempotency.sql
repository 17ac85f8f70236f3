-- Idempotency keys: the first request with a key claims the row (INSERT ... ON CONFLICT, atomic across
-- instances), runs, and stores its response; a retry with the same key and request gets that response.
-- `scope` is the credential's workspace id, or `addr:<client address>` on public operations, so the same
-- key in two workspaces names two records. `locked_until` bounds a claim whose process died: after it, a
-- retry may take the claim over instead of waiting for the 24 h expiry. Response bodies are encrypted
-- (AES-256-GCM) because some hold secrets shown once, such as a minted API key.
CREATE TABLE idempotency_keys (
  scope text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  state text NOT NULL CHECK (state IN ('in_progress', 'done')),
  -- Identifies one claim, so a request whose claim was taken over cannot store or release the new one.
  claim text NOT NULL,
  response_status integer,
  response_headers jsonb,
  response_body bytea,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  locked_until timestamptz NOT NULL,
  PRIMARY KEY (scope, key),
  CHECK (state = 'in_progress' OR (response_status IS NOT NULL AND response_headers IS NOT NULL AND response_body IS NOT NULL))
);

CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (expires_at);
