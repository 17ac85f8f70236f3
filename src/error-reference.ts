// What each wire error code means and what to do about it: the text of the error reference the service
// serves at /docs/errors, which every problem's `type` points at. Keyed by ErrorCode, so a code added to
// src/errors.ts without its entry here does not compile. docs/errors.md tells the same in longer form.
import type { ErrorCode } from './errors.ts';

export interface ErrorReferenceEntry {
  meaning: string;
  remedy: string;
}

export const errorReference: Record<ErrorCode, ErrorReferenceEntry> = {
  validation_failed: {
    meaning:
      'An argument is missing, of the wrong type or out of range; `errors[]` names it. Strings refuse U+0000 and unpaired surrogates (`invalid_character`).',
    remedy: 'Fix the argument named in `errors[]` and send the request again.',
  },
  bad_request: {
    meaning: 'The request is malformed, for example a body that cannot be parsed.',
    remedy: 'Fix the request.',
  },
  invalid_cursor: {
    meaning: 'A list `cursor` this list did not return (cursors are signed and bound to their list and workspace).',
    remedy: 'Pass `next_cursor` back unchanged, to the same list, in the same workspace.',
  },
  unauthorized: {
    meaning: 'The bearer credential is missing, malformed, expired or revoked (`WWW-Authenticate: Bearer`).',
    remedy:
      'Log in again for an expired JWT; for an API key, check it is sent whole as `Authorization: Bearer svc_…` and not revoked, or mint a new one in Settings → API keys.',
  },
  invalid_credentials: {
    meaning: '`login` with a wrong email or password.',
    remedy: 'Check both; repeated failures lead to 429.',
  },
  forbidden: {
    meaning:
      "The credential's role does not allow this (an admin-only operation called by a member, someone else's operation or run, an API key accepting an invitation).",
    remedy: "Use an admin's credential, or ask an admin.",
  },
  approval_requires_human: {
    meaning: 'An agent or an API key tried to approve or reject a sequence, or to turn human approval off.',
    remedy:
      'Hand the `approval_url` in the problem to a person, and wait with `get_email_sequence` or `get_agent_run` and `wait_seconds`.',
  },
  no_workspace: {
    meaning:
      'The login belongs to an account with no workspace (its member was removed from the last one): it can only accept an invitation.',
    remedy:
      "Accept an invitation with `accept_invitation_as_me` (or the admin panel's Join a workspace card), then log in again.",
  },
  insufficient_scope: {
    meaning: 'The credential lacks the scope the operation declares (named in `WWW-Authenticate`).',
    remedy: 'Use a credential with that scope; v1 API keys carry `*`, which matches every scope.',
  },
  not_found: {
    meaning: "No such resource in the caller's workspace; an id from another workspace is also 404.",
    remedy: "Check the id, and the credential's workspace with `get_me`.",
  },
  method_not_allowed: {
    meaning: 'The path exists, but not with this method.',
    remedy: 'Use a method the `Allow` header lists.',
  },
  conflict: {
    meaning:
      "The request conflicts with the current state (the owner's membership, reconnecting a connected connector, a 21st webhook endpoint, a source already being fetched).",
    remedy: 'Read `detail`, change the state it names first, then retry.',
  },
  already_exists: {
    meaning:
      'The thing exists already: an email with an account at `signup`, a member invited again, an invitation to a workspace you are in.',
    remedy: 'Use what exists (`login` for an account).',
  },
  account_exists: {
    meaning: '`accept_invitation` for an email that has an account; the token stays unused.',
    remedy: '`login`, then `accept_invitation_as_me` with the token.',
  },
  idempotency_in_progress: {
    meaning: 'A request with the same `Idempotency-Key` is still running.',
    remedy: 'Wait a moment and retry the same request with the same key.',
  },
  operation_finished: {
    meaning: '`cancel_operation` on an operation that already ended.',
    remedy: 'Nothing to cancel: read its outcome with `get_operation`.',
  },
  connector_not_connected: {
    meaning:
      'The connector is not `connected`; `errors[0].code` says its status (pending consent, failed, expired, revoked).',
    remedy:
      'Show the human the consent link and wait with `get_connector` and `wait_seconds`, or get a fresh link with `start_connector_oauth` and `reconnect_connector_id`.',
  },
  not_sandbox: {
    meaning:
      '`simulate_sandbox_inbound` on a message that went through a live connector, or was never sent: the helper only plays a lead in sandbox mode, and live mail cannot be faked.',
    remedy:
      'Use a message a sandbox connector sent (`list_sandbox_messages`, or `list_sent_messages` with mode sandbox).',
  },
  budget_confirmation_mismatch: {
    meaning: "`launch_ad_campaign`'s `confirm` does not repeat the daily budget exactly; nothing was launched.",
    remedy: 'Ask the human to agree to the budget `detail` gives, then call again with it.',
  },
  ad_campaign_state_conflict: {
    meaning: "The ad campaign's state does not allow this change.",
    remedy: '`detail` says what to call instead.',
  },
  ad_campaign_not_paused: {
    meaning: '`update_ad_campaign` on a campaign that is launching, in review, active or disapproved.',
    remedy: '`pause_ad_campaign`, edit, then `resume_ad_campaign`.',
  },
  export_not_ready: {
    meaning: '`download_lead_export` before the export finished, or for one that failed or was cancelled.',
    remedy: 'Wait with `get_operation` and `wait_seconds`, then download; start a new export for a failed one.',
  },
  sequence_not_approved: {
    meaning: 'Launching a sequence whose current revision is not approved.',
    remedy: 'Submit it for approval and have a person approve it at the `approval_url`.',
  },
  sequence_not_editable: {
    meaning: 'Editing a sequence that is neither draft nor paused.',
    remedy: 'Pause it first, or archive it and create a new one.',
  },
  sequence_state_conflict: {
    meaning: "The sequence's status does not allow this transition (submitting an active one, resuming a draft).",
    remedy: 'Read its status with `get_email_sequence` and call what that status allows.',
  },
  connector_expired: {
    meaning: "The sender's connector lost its grant (`invalid_grant`).",
    remedy: 'Reconnect with `start_connector_oauth` and `reconnect_connector_id`.',
  },
  no_enrollments: {
    meaning: 'Launching a sequence with nobody enrolled.',
    remedy: 'Enroll leads (`enroll_leads_in_sequence`, or `enroll` in the launch call).',
  },
  revision_changed: {
    meaning: 'The sequence changed since the approved revision.',
    remedy: 'Submit the new revision for approval.',
  },
  sequence_blocked: {
    meaning: 'A blocking check fails (no connected sender, no postal address, an empty step).',
    remedy: 'Fix what `detail` names (`update_workspace_settings {postal_address}` for the address) and retry.',
  },
  agent_run_finished: {
    meaning: '`cancel_agent_run` on a run that already succeeded or failed.',
    remedy: 'Nothing to cancel: read the run with `get_agent_run`.',
  },
  no_knowledge: {
    meaning: "An agent run found nothing in the workspace's knowledge matching its goal and audience.",
    remedy: "Ingest the brand's site with `ingest_url_into_knowledge`, then run again.",
  },
  sequence_rejected: {
    meaning: 'The reviewer rejected the sequence; their note is in `detail`.',
    remedy: 'Edit the sequence and submit it again, or run the agent again.',
  },
  authorization_timeout: {
    meaning: 'Nobody allowed the connector in time (`AGENT_AUTHORIZATION_TIMEOUT_SECONDS`).',
    remedy: 'Run again when the human is ready.',
  },
  approval_timeout: {
    meaning: 'Nobody approved the sequence in time (`AGENT_APPROVAL_TIMEOUT_SECONDS`).',
    remedy: 'Run again, or approve the pending sequence; its link still works.',
  },
  webinar_cancelled: {
    meaning: 'The webinar is cancelled; nothing about it can change.',
    remedy: 'Schedule a new webinar.',
  },
  webinar_closed: { meaning: "Registration closed at the webinar's start.", remedy: 'Nothing to do for this webinar.' },
  slug_taken: { meaning: 'Another post of the workspace has this slug.', remedy: 'Choose another slug.' },
  draft_check_failed: {
    meaning: 'A generated draft failed its checks, each listed in `errors[]`.',
    remedy: 'Change the input or knowledge and run again.',
  },
  export_expired: {
    meaning: 'The export is older than 7 days; its file is gone.',
    remedy: 'Start a new export with `export_leads`.',
  },
  revision_mismatch: {
    meaning: '`If-Match` names a revision the sequence has moved on from.',
    remedy: 'Read it again with `get_email_sequence` and send the edit with its current revision.',
  },
  payload_too_large: {
    meaning: 'The body exceeds `BODY_LIMIT_BYTES` (1 MiB by default).',
    remedy: 'Send less (a large CSV goes by `csv_url`).',
  },
  unsupported_media_type: {
    meaning: 'A `Content-Type` the operation does not take.',
    remedy: 'Send one the `Accept` header lists (usually `application/json`).',
  },
  unprocessable: {
    meaning: 'The request is well-formed but cannot be processed; `detail` says why.',
    remedy: 'Change what `detail` names.',
  },
  password_too_long: { meaning: 'A new password over 1024 characters.', remedy: 'Use 8 to 1024 characters.' },
  idempotency_key_reused: {
    meaning: 'The `Idempotency-Key` was used with a different request within 24 hours.',
    remedy: 'Use a new key for a new request.',
  },
  url_not_allowed: {
    meaning: 'A URL the service will not fetch: not http(s), credentials in it, or an address that is not public.',
    remedy: 'Give a public http(s) URL; the reason is in `errors[0].code`.',
  },
  url_fetch_failed: {
    meaning:
      "A URL the service could not fetch (DNS, connection, timeout, redirects, size, media type), or whose site's `robots.txt` could not be read (which RFC 9309 counts as disallowing the whole site).",
    remedy: 'Fix the site or give another URL; the reason is in `errors[0].code`.',
  },
  robots_disallowed: {
    meaning: "The site's `robots.txt` does not allow fetching the start page.",
    remedy: "Ingest a page it allows, or ask the site's owner.",
  },
  knowledge_no_text: {
    meaning: 'No text could be extracted from the page (empty, or built only by scripts).',
    remedy: 'Try another URL.',
  },
  rate_limited: {
    meaning: 'Too many requests for this credential, client address or login.',
    remedy: 'Wait the `Retry-After` seconds, then retry; the SDK and `service-mcp` do it for you.',
  },
  internal: {
    meaning: 'An unexpected fault; the body says no more.',
    remedy: 'Retry once with the same `Idempotency-Key`; if it persists, report the `request_id`.',
  },
  webhook_delivery_failed: {
    meaning: "A test webhook's endpoint did not answer 2xx; `detail` names what it answered.",
    remedy: 'Fix the endpoint and test again.',
  },
  provider_unavailable: {
    meaning: 'The outside provider (Google, Meta) failed or did not answer; nothing changed here.',
    remedy: 'Retry later.',
  },
  service_unavailable: {
    meaning: '`get_health` found the database not answering.',
    remedy: 'Retry later; check the database.',
  },
  database_unavailable: {
    meaning: 'The database cannot be reached right now (a restart, a dropped connection).',
    remedy: 'Retry after `Retry-After`; the service reconnects by itself.',
  },
  transaction_conflict: {
    meaning:
      'The request met another at the same moment (a deadlock or a serialization conflict) and the database rolled back its transaction.',
    remedy: 'Retry after `Retry-After` (with the same `Idempotency-Key` for a side-effecting call).',
  },
  database_timeout: {
    meaning:
      'A statement of this request ran longer than the service allows one to run (`DATABASE_QUERY_TIMEOUT_MS`), or waited that long for a row another request held, and the database stopped it; its transaction wrote nothing.',
    remedy:
      'Retry after `Retry-After` (with the same `Idempotency-Key` for a side-effecting call); if it keeps happening, narrow the request (a smaller page, a narrower filter) or tell the operator.',
  },
};
