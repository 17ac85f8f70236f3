// Every Gmail call made as a connector's account, sends and reads alike, goes through withAccessToken:
// it takes the connector's access token (refreshed shortly before it expires, see tokens.ts); a 401 means
// Gmail refused the token before it expired and did not act, so the token is refreshed once and the call
// made once more. What the call then came to is for the caller to classify.
import type { Deps } from '../../../deps.ts';
import { ApiError } from '../../../errors.ts';
import type { ConnectorRow } from '../connectors-data.ts';
import { accessTokenFor } from '../tokens.ts';
import { ProviderError } from './google-client.ts';

/** No access token could be had: the provider was not asked. */
export type NoToken =
  | { kind: 'refused'; code: 'connector_not_connected'; reason: string; problem: ApiError }
  | { kind: 'retryable'; code: 'token_unavailable'; reason: string; problem?: ApiError };

/** What a call made with the connector's token came to: its value, what it threw, or why no token could be had. */
export type TokenCall<T> = { kind: 'answered'; value: T } | { kind: 'threw'; error: unknown } | NoToken;

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
export async function withAccessToken<T>(
  deps: Deps,
  connector: ConnectorRow,
  call: (token: string) => Promise<T>,
): Promise<TokenCall<T>> {
  const first = await callOnce(deps, connector, call, false);
  const refused = first.kind === 'threw' && first.error instanceof ProviderError && first.error.kind === 'unauthorized';
  return refused ? callOnce(deps, connector, call, true) : first;
}
