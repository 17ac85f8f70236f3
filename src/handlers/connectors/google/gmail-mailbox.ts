// The Gmail mailbox: every Gmail API call made as a connector's account, in live mode (Google) and
// sandbox mode (the service's own Gmail) alike; only deps.connectors.gmail's endpoints differ. A call
// takes the connector's access token (refreshed shortly before it expires, see tokens.ts); a 401 means
// Gmail refused the token before it expired and did not act, so the token is refreshed once and the
// call made once more. Everything else the provider answers is classified here, once, for every sender.
import type { Deps } from '../../../deps.ts';
import { ApiError } from '../../../errors.ts';
import type { ConnectorRow } from '../connectors-data.ts';
import type { Mailbox, MailboxReader, SendOutcome } from '../providers/mailbox.ts';
import { accessTokenFor } from '../tokens.ts';
import { ProviderError } from './google-client.ts';
import { sendRawMessage } from './gmail-send.ts';

/** No access token could be had: the provider was not asked. */
type NoToken =
  | { kind: 'refused'; code: 'connector_not_connected'; reason: string; problem: ApiError }
  | { kind: 'retryable'; code: 'token_unavailable'; reason: string; problem?: ApiError };

/**
 * What a call made with the connector's token came to: its value, what it threw (for the caller to
 * classify), or why no token could be had. Every Gmail call goes through withAccessToken: send here, and
 * reading the mailbox for replies when it joins `Mailbox`.
 */
type TokenCall<T> = { kind: 'answered'; value: T } | { kind: 'threw'; error: unknown } | NoToken;

function noToken(deps: Deps, connector: ConnectorRow, error: unknown): NoToken {
  if (error instanceof ApiError && error.code === 'connector_not_connected')
    return { kind: 'refused', code: 'connector_not_connected', reason: error.message, problem: error };
  if (!(error instanceof ApiError))
    deps.log.error({ err: error, connector_id: connector.id }, 'mailbox: no access token');
  const reason = error instanceof Error ? error.message : String(error);
  return {
    kind: 'retryable',
    code: 'token_unavailable',
    reason,
    problem: error instanceof ApiError ? error : undefined,
  };
}

async function callOnce<T>(
  deps: Deps,
  connector: ConnectorRow,
  call: (token: string) => Promise<T>,
  force: boolean,
): Promise<TokenCall<T>> {
  let token: string;
  try {
    token = await accessTokenFor(deps, connector, { force });
  } catch (error) {
    return noToken(deps, connector, error);
  }
  try {
    return { kind: 'answered', value: await call(token) };
  } catch (error) {
    return { kind: 'threw', error };
  }
}

/** Runs `call` with the connector's access token; a refused token is refreshed once and the call made again. */
async function withAccessToken<T>(
  deps: Deps,
  connector: ConnectorRow,
  call: (token: string) => Promise<T>,
): Promise<TokenCall<T>> {
  const first = await callOnce(deps, connector, call, false);
  const refused = first.kind === 'threw' && first.error instanceof ProviderError && first.error.kind === 'unauthorized';
  return refused ? callOnce(deps, connector, call, true) : first;
}

/** What Gmail's refusal or silence means for the message. */
function classifySendFailure(deps: Deps, connector: ConnectorRow, error: unknown): SendOutcome {
  if (!(error instanceof ProviderError)) {
    deps.log.error(
      { err: error, connector_id: connector.id },
      'Gmail send: unexpected failure during the provider call',
    );
    return { kind: 'uncertain', code: 'send_interrupted', reason: 'The provider call failed in an unexpected way' };
  }
  const { kind, status, detail, message: reason } = error;
  switch (kind) {
    case 'unauthorized':
      // Refused again with a token refreshed a moment ago: the mailbox as a whole cannot send.
      return { kind: 'refused', code: 'connector_refused', reason };
    case 'forbidden':
      return { kind: 'retryable', code: 'provider_unavailable', reason, retryAfterSeconds: detail.retryAfterSeconds };
    case 'invalid_request':
      return /invalid to|recipient/i.test(detail.providerMessage ?? '')
        ? { kind: 'bounced', reason }
        : { kind: 'refused', code: 'rejected', reason };
    case 'unavailable':
      // An answer (429, 5xx) or no connection made: Gmail did not take it. Otherwise the request may have arrived.
      if (status !== undefined || detail.notSent)
        return {
          kind: 'retryable',
          code: status === 429 ? 'rate_limited' : 'provider_unavailable',
          reason,
          retryAfterSeconds: detail.retryAfterSeconds,
        };
      return { kind: 'uncertain', code: 'no_answer', reason };
    case 'bad_response':
    case 'invalid_grant':
      // An answer we cannot read (invalid_grant comes only from the token endpoint): Gmail may have sent it.
      return { kind: 'uncertain', code: 'no_answer', reason };
  }
}

// PLACEHOLDER (issue 28 foundation): the Gmail reads are built by the connectors helper.
const notBuilt = (): never => {
  throw new Error('Gmail reads are not built yet');
};
const gmailReader: MailboxReader = {
  profile: notBuilt,
  history: notBuilt,
  recent: notBuilt,
  metadata: notBuilt,
  full: notBuilt,
  thread: notBuilt,
};

export const gmailMailbox: Mailbox = {
  read: gmailReader,
  async send(deps, connector, raw) {
    const result = await withAccessToken(deps, connector, (token) => sendRawMessage(deps.connectors.gmail, token, raw));
    switch (result.kind) {
      case 'answered':
        return { kind: 'sent', providerMessageId: result.value.id, threadId: result.value.threadId };
      case 'threw':
        return classifySendFailure(deps, connector, result.error);
      case 'retryable':
      case 'refused':
        return result;
    }
  },
};
