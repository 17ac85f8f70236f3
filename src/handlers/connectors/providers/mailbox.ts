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
 * before it expired, refreshes it once and tries once more; nothing else is retried inside.
 */
export interface Mailbox {
  /**
   * Sends one RFC 5322 message (base64url, as Gmail's `raw`) as the connector's account; with `threadId`, into
   * that thread (the message must also carry In-Reply-To/References and a matching subject). Never throws for an
   * answer or a missing token.
   */
  send(deps: Deps, connector: ConnectorRow, raw: string, options?: { threadId?: string }): Promise<SendOutcome>;
  /** Reading the mailbox for what came back; the scopes it needs are the read_replies capability's. */
  read: MailboxReader;
}

/** One message as Gmail's `format=metadata` shows it: ids, labels and headers, never the body. */
export interface MessageMetadata {
  id: string;
  threadId: string;
  labelIds: string[];
  /** When the mailbox received it (Gmail's internalDate). */
  receivedAt: Date;
  /** Header values by lower-cased name, in the message's order (a header can repeat). */
  headers: Record<string, string[]>;
}

/** A message with its readable text (`format=full`, needs gmail.readonly): the text/plain part, else the HTML's text. */
export interface FullMessage extends MessageMetadata {
  text: string | null;
  /** A DSN's `Status:` field (e.g. 5.1.1) from its message/delivery-status part, when it has one. */
  deliveryStatus: string | null;
}

/** A message added to the mailbox, as history and listings name it before it is fetched. */
export interface MessageRef {
  id: string;
  threadId: string;
  labelIds: string[];
}

/**
 * What one read of the mailbox came to. `history_expired`: Gmail no longer keeps history that old (404),
 * so a full sync must replace it. `insufficient_scope`: the grant lacks the scope (403), a person must
 * reconnect with the capability. `not_found`: the message or thread is gone. The others as for a send.
 */
export type ReadOutcome<T> =
  | { kind: 'ok'; value: T }
  | { kind: 'history_expired' }
  | { kind: 'not_found' }
  | { kind: 'insufficient_scope'; reason: string }
  | { kind: 'retryable'; reason: string; retryAfterSeconds?: number }
  | { kind: 'refused'; code: 'connector_not_connected' | 'connector_refused'; reason: string };

/**
 * Reading a mailbox for what came back (replies, auto-replies, bounces). Each call is one provider request
 * with the connector's token (refreshed once when refused, as for a send). The sync job (a poll each minute)
 * uses profile, history, recent and message; a push receiver (Gmail's users.watch) would replace only the
 * poll's trigger. The sender's pre-send check uses thread.
 */
export interface MailboxReader {
  /** Where the mailbox's history stands now. */
  profile(deps: Deps, connector: ConnectorRow): Promise<ReadOutcome<{ historyId: string }>>;
  /** Messages added after `startHistoryId` (users.history.list, historyTypes=messageAdded), a page at a time. */
  history(
    deps: Deps,
    connector: ConnectorRow,
    startHistoryId: string,
    pageToken?: string,
  ): Promise<ReadOutcome<{ added: MessageRef[]; historyId: string; nextPageToken?: string }>>;
  /** Messages received in the last `days` days (users.messages.list q=newer_than), a page at a time: the full sync. */
  recent(
    deps: Deps,
    connector: ConnectorRow,
    days: number,
    pageToken?: string,
  ): Promise<ReadOutcome<{ messages: MessageRef[]; nextPageToken?: string }>>;
  /** One message's headers (format=metadata). */
  metadata(deps: Deps, connector: ConnectorRow, messageId: string): Promise<ReadOutcome<MessageMetadata>>;
  /** One message with its text (format=full); needs read_reply_text. */
  full(deps: Deps, connector: ConnectorRow, messageId: string): Promise<ReadOutcome<FullMessage>>;
  /** A thread's messages' headers, oldest first (users.threads.get format=metadata). */
  thread(
    deps: Deps,
    connector: ConnectorRow,
    threadId: string,
  ): Promise<ReadOutcome<{ id: string; messages: MessageMetadata[] }>>;
}
