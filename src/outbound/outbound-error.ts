// Why an outbound fetch of a user-given URL was refused or failed, as stable codes, and the
// one-line conversion handlers use to turn that into the wire error (a 422 problem).
import { ApiError } from '../errors.ts';

/** Refusals by policy: the URL (or a redirect it led to) is one we will not fetch. */
const refusals = [
  'url_invalid',
  'url_scheme_not_allowed',
  'url_credentials_not_allowed',
  'address_not_allowed',
  'redirect_to_insecure',
] as const;

/** Failures of an allowed fetch: the remote end misbehaved or exceeded a limit. */
const failures = [
  'too_many_redirects',
  'response_too_large',
  'timeout',
  'unsupported_media_type',
  'dns_failure',
  'connection_failed',
  'response_invalid',
] as const;

export type OutboundReason = (typeof refusals)[number] | (typeof failures)[number];

export interface OutboundErrorDetails {
  /** The URL of the hop that was refused or failed (credentials never included). */
  url?: string;
  /** For address_not_allowed: the address and its ipaddr.js range (loopback, private, linkLocal, …). */
  address?: string;
  addressClass?: string;
  /** For response_too_large: the cap in bytes. For unsupported_media_type: the type received. */
  limitBytes?: number;
  contentType?: string;
  /** For timeout: which limit ran out (the call's total, the connect or the idle timeout), in ms. */
  limitMs?: number;
}

export class OutboundError extends Error {
  readonly reason: OutboundReason;
  readonly details: OutboundErrorDetails;

  constructor(reason: OutboundReason, message: string, details: OutboundErrorDetails = {}, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'OutboundError';
    this.reason = reason;
    this.details = details;
  }

  /** True when the URL itself is not allowed, as opposed to a fetch that failed. */
  get refused(): boolean {
    return (refusals as readonly string[]).includes(this.reason);
  }
}

/** The 422 ApiError for an outbound error; `field` names the request field that held the URL. */
export function outboundApiError(error: OutboundError, field = 'url'): ApiError {
  const code = error.refused ? 'url_not_allowed' : 'url_fetch_failed';
  const summary = error.refused ? 'The URL is not allowed' : 'The URL could not be fetched';
  return new ApiError(code, `${summary}: ${error.message}`, {
    errors: [{ field, code: error.reason, message: error.message }],
  });
}
