// The one error type that crosses the wire, and its exhaustive code-to-status mapping.

export const errorStatus = {
  validation_failed: 400,
  bad_request: 400,
  invalid_cursor: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  forbidden: 403,
  approval_requires_human: 403,
  insufficient_scope: 403,
  no_workspace: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  already_exists: 409,
  account_exists: 409,
  idempotency_in_progress: 409,
  operation_finished: 409,
  connector_not_connected: 409,
  not_sandbox: 409,
  budget_confirmation_mismatch: 409,
  ad_campaign_state_conflict: 409,
  ad_campaign_not_paused: 409,
  export_not_ready: 409,
  sequence_not_approved: 409,
  sequence_not_editable: 409,
  sequence_state_conflict: 409,
  connector_expired: 409,
  no_enrollments: 409,
  revision_changed: 409,
  sequence_blocked: 409,
  agent_run_finished: 409,
  no_knowledge: 409,
  sequence_rejected: 409,
  authorization_timeout: 409,
  approval_timeout: 409,
  webinar_cancelled: 409,
  webinar_closed: 409,
  slug_taken: 409,
  draft_check_failed: 422,
  export_expired: 410,
  revision_mismatch: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  password_too_long: 422,
  idempotency_key_reused: 422,
  url_not_allowed: 422,
  url_fetch_failed: 422,
  robots_disallowed: 422,
  knowledge_no_text: 422,
  rate_limited: 429,
  internal: 500,
  webhook_delivery_failed: 502,
  provider_unavailable: 502,
  service_unavailable: 503,
  database_unavailable: 503,
  transaction_conflict: 503,
  database_timeout: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface FieldError {
  pointer?: string;
  field?: string;
  code: string;
  message: string;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;
  /** Extension members of the problem (RFC 9457 §3.2), e.g. the consent `elicitation` of a connector waiting for it. */
  readonly extensions?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { errors?: FieldError[]; headers?: Record<string, string>; extensions?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = errorStatus[code];
    this.errors = options.errors;
    this.headers = options.headers;
    this.extensions = options.extensions;
  }
}

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  code: string;
  request_id: string;
  errors?: FieldError[];
}

/**
 * A problem's `type`: the code's entry in the error reference the service serves (src/http/docs.ts). A
 * relative reference (RFC 9457 §3.1.1 allows it, with the full path as here): it resolves against the
 * address the client used, so it is right behind any proxy and on every instance, cannot be steered by a
 * forged Host header, and stays one stable string per code for clients that compare types.
 */
export function errorTypeUri(code: ErrorCode): string {
  return `/docs/errors#${code}`;
}

export function toProblem(error: ApiError, requestId: string, instance?: string): Problem {
  const problem: Problem = {
    ...error.extensions,
    type: errorTypeUri(error.code),
    title: titles[error.status] ?? 'Error',
    status: error.status,
    detail: error.message,
    code: error.code,
    request_id: requestId,
  };
  if (instance) problem.instance = instance;
  if (error.errors?.length) problem.errors = error.errors;
  return problem;
}
