// What a connector that is a mailbox can do, and what one send comes to. Sequences, webinars and the
// test email all send through `sendMail` and switch on its outcome; none of them sees a token, a
// provider error or the retry after a refused token.
import type { ApiError } from '../../../errors.ts';
import type { Deps } from '../../../deps.ts';
import type { ConnectorRow } from '../connectors-data.ts';

/**
 * How one send ended, classified once for every sender. `reason` is a sentence for logs and stored
 * failures. `problem` is our own wire error for a failure before the provider was asked (the connector
 * gave no token, or cannot send at all), for callers that answer a request with it.
 */
export type SendOutcome =
  /** The provider took the message. */
  | { kind: 'sent'; providerMessageId: string; threadId?: string }
  /**
   * Nothing was delivered and the same message may go later: `rate_limited` (429, after `retryAfterSeconds`
   * when given), `provider_unavailable` (5xx, 403, or no connection made), `token_unavailable` (no access
   * token now; the provider was not asked).
   */
  | {
      kind: 'retryable';
      code: 'rate_limited' | 'provider_unavailable' | 'token_unavailable';
      reason: string;
      retryAfterSeconds?: number;
      problem?: ApiError;
    }
  /**
   * Nothing was delivered and trying the same way again will not help: the connector is not connected
   * (its grant is gone), the provider refused a freshly refreshed token, the connector is not a mailbox,
   * or the provider refused this message.
   */
  | {
      kind: 'refused';
      code: 'connector_not_connected' | 'connector_refused' | 'not_a_mailbox' | 'rejected';
      reason: string;
      problem?: ApiError;
    }
  /** The provider refused the recipient's address. */
  | { kind: 'bounced'; reason: string }
  /** No readable answer after the message left: it may have been delivered, so it must not be sent again. */
  | { kind: 'uncertain'; code: 'no_answer' | 'send_interrupted'; reason: string };

/**
 * A provider's mailbox. Every call takes the connector's access token and, when the provider refuses it
 * before it expired, refreshes it once and tries once more; nothing else is retried inside. Reading the
 * mailbox (`sync`, for replies) belongs here beside `send` and shares that token handling.
 */
export interface Mailbox {
  /** Sends one RFC 5322 message (base64url, as Gmail's `raw`) as the connector's account. Never throws for an answer or a missing token. */
  send(deps: Deps, connector: ConnectorRow, raw: string): Promise<SendOutcome>;
}
