// The Gmail mailbox: every Gmail API call made as a connector's account, in live mode (Google) and
// sandbox mode (the service's own Gmail) alike; only deps.connectors.gmail's endpoints differ. Each call
// goes through withAccessToken (gmail-token-call.ts: one refresh when the token is refused). What a send
// comes to is classified here, once, for every sender; the reads are in gmail-reader.ts.
import type { Deps } from '../../../deps.ts';
import type { ConnectorRow } from '../connectors-data.ts';
import type { Mailbox, SendOutcome } from '../providers/mailbox.ts';
import { ProviderError } from './google-client.ts';
import { gmailReader } from './gmail-reader.ts';
import { sendRawMessage } from './gmail-send.ts';
import { withAccessToken } from './gmail-token-call.ts';

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
    case 'not_found':
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

export const gmailMailbox: Mailbox = {
  read: gmailReader,
  async send(deps, connector, raw, options = {}) {
    const result = await withAccessToken(deps, connector, (token) =>
      sendRawMessage(deps.connectors.gmail, token, raw, options.threadId),
    );
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
