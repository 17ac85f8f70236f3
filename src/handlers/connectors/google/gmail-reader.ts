// Reading a Gmail mailbox for what came back, as the MailboxReader: each read goes through withAccessToken
// (one refresh when the token is refused) and what Gmail answered becomes a ReadOutcome here, once. Reads
// change nothing at Gmail, so an answer that never came is simply retryable.
import type { Deps } from '../../../deps.ts';
import type { ConnectorRow } from '../connectors-data.ts';
import type { MailboxReader, MessageRef, ReadOutcome } from '../providers/mailbox.ts';
import { GMAIL_METADATA_SCOPE, GMAIL_READONLY_SCOPE } from './google-endpoints.ts';
import { ProviderError } from './google-client.ts';
import {
  getFullMessage,
  getMessage,
  getProfile,
  getThread,
  isScopeRefusal,
  listHistory,
  listMessages,
} from './gmail-read.ts';
import { withAccessToken } from './gmail-token-call.ts';

/** What a 404 (or a 400 about the id) means for this read. */
type Missing = 'history_expired' | 'not_found' | 'retryable';

function classifyReadFailure<T>(deps: Deps, connector: ConnectorRow, error: unknown, missing: Missing): ReadOutcome<T> {
  if (!(error instanceof ProviderError)) {
    deps.log.error(
      { err: error, connector_id: connector.id },
      'Gmail read: unexpected failure during the provider call',
    );
    return { kind: 'retryable', reason: 'The provider call failed in an unexpected way' };
  }
  const { kind, detail, message: reason } = error;
  if (kind === 'unauthorized') return { kind: 'refused', code: 'connector_refused', reason };
  if (isScopeRefusal(error)) return { kind: 'insufficient_scope', reason };
  // A 400 about an id (a malformed history id, a message id Gmail never had) is as final as its 404.
  if ((kind === 'not_found' || kind === 'invalid_request') && missing !== 'retryable') return { kind: missing };
  if (kind === 'bad_response') deps.log.warn({ connector_id: connector.id, reason }, 'Gmail read: unreadable answer');
  return { kind: 'retryable', reason, retryAfterSeconds: detail.retryAfterSeconds };
}

async function read<T>(
  deps: Deps,
  connector: ConnectorRow,
  missing: Missing,
  call: (token: string) => Promise<T>,
): Promise<ReadOutcome<T>> {
  const result = await withAccessToken(deps, connector, call);
  switch (result.kind) {
    case 'answered':
      return { kind: 'ok', value: result.value };
    case 'threw':
      return classifyReadFailure(deps, connector, result.error, missing);
    case 'retryable':
      return { kind: 'retryable', reason: result.reason };
    case 'refused':
      return { kind: 'refused', code: result.code, reason: result.reason };
  }
}

/**
 * Google applies gmail.metadata's limits (no `q`, no format=full) to any token that carries it, even beside
 * gmail.readonly, so a search is only possible for a grant with gmail.readonly and without gmail.metadata.
 */
const canSearch = (connector: ConnectorRow) =>
  connector.scopes_granted.includes(GMAIL_READONLY_SCOPE) && !connector.scopes_granted.includes(GMAIL_METADATA_SCOPE);

/**
 * One page of the messages received since `since`, without a search: Gmail lists newest first, so the page is
 * whole when its last message is recent enough; otherwise the first message older than `since` is found by
 * bisection (format=minimal reads) and the page ends there, with no next page. A message gone meanwhile counts
 * as recent: the sync's own read of it will find it gone.
 */
async function recentWithoutSearch(
  deps: Deps,
  token: string,
  since: Date,
  pageToken?: string,
): Promise<{ messages: MessageRef[]; nextPageToken?: string }> {
  const { gmail } = deps.connectors;
  const page = await listMessages(gmail, token, { pageToken });
  const recent = async (ref: MessageRef) => {
    try {
      return (await getMessage(gmail, token, ref.id, 'minimal')).receivedAt >= since;
    } catch (error) {
      if (error instanceof ProviderError && error.kind === 'not_found') return true;
      throw error;
    }
  };
  const last = page.messages.at(-1);
  if (!last || (await recent(last))) return page;
  let low = 0;
  let high = page.messages.length - 1; // the first message known to be older than `since`
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (await recent(page.messages[middle])) low = middle + 1;
    else high = middle;
  }
  return { messages: page.messages.slice(0, high) };
}

export const gmailReader: MailboxReader = {
  profile: (deps, connector) => read(deps, connector, 'retryable', (token) => getProfile(deps.connectors.gmail, token)),

  history: (deps, connector, startHistoryId, pageToken) =>
    read(deps, connector, 'history_expired', (token) =>
      listHistory(deps.connectors.gmail, token, startHistoryId, pageToken),
    ),

  recent(deps, connector, days, pageToken) {
    const since = new Date(deps.clock.now().getTime() - days * 86_400_000);
    return read(deps, connector, 'retryable', async (token) => {
      if (!canSearch(connector)) return recentWithoutSearch(deps, token, since, pageToken);
      try {
        return await listMessages(deps.connectors.gmail, token, { pageToken, q: `newer_than:${days}d` });
      } catch (error) {
        // The token carries gmail.metadata after all (include_granted_scopes brought back an older grant).
        if (error instanceof ProviderError && isScopeRefusal(error) && !pageToken)
          return recentWithoutSearch(deps, token, since);
        throw error;
      }
    });
  },

  metadata: (deps, connector, messageId) =>
    read(deps, connector, 'not_found', (token) => getMessage(deps.connectors.gmail, token, messageId, 'metadata')),

  full: (deps, connector, messageId) =>
    read(deps, connector, 'not_found', (token) => getFullMessage(deps.connectors.gmail, token, messageId)),

  thread: (deps, connector, threadId) =>
    read(deps, connector, 'not_found', (token) => getThread(deps.connectors.gmail, token, threadId)),
};
