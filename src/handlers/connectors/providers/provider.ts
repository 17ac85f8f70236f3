// What each connector provider does differently in the OAuth flow: where consent happens, how a code
// becomes tokens and an account, and how a grant is given back; and, for a mailbox, how it sends. Everything else (states, PKCE,
// sealing, events, the callback page) is shared by start-connector-oauth.ts and oauth-callback.ts.
import type { Deps } from '../../../deps.ts';
import type { Mailbox } from './mailbox.ts';
import type { StoredTokens } from '../tokens.ts';

/** Why a consent callback was refused; complete-oauth.ts words each one for the callback page. */
export type CallbackRefusal =
  | 'state_missing'
  | 'state_unknown'
  | 'state_used'
  | 'state_expired'
  | 'state_superseded'
  | 'consent_denied'
  | 'provider_error'
  | 'code_missing'
  | 'token_exchange_failed'
  | 'scope_missing'
  | 'userinfo_failed'
  /** An added capability's consent was given by another account than the connector's. */
  | 'account_mismatch';

export type Grant =
  | { ok: true; tokens: StoredTokens; expiresIn: number; scopesGranted: string[]; account: string }
  | { ok: false; reason: CallbackRefusal; status: 400 | 502 };

export interface ConnectorProvider {
  /** The provider's name as people know it, for pages ("Gmail is connected as …"). */
  label: string;
  mode(deps: Deps): 'live' | 'sandbox';
  scopes: string[];
  /**
   * The scopes a consent asks for to give `capabilities` (a mailbox's: send, read_replies, read_reply_text);
   * absent for a provider with none, which refuses a request naming any.
   */
  scopesFor?(capabilities: readonly string[]): string[];
  consentUrl(
    deps: Deps,
    request: {
      state: string;
      codeChallenge: string;
      redirectUri: string;
      loginHint?: string;
      scopes: string[];
      includeGrantedScopes?: boolean;
    },
  ): string;
  exchange(
    deps: Deps,
    request: { code: string; verifier: string; redirectUri: string; connectorId: string },
  ): Promise<Grant>;
  /** Gives the grant back at the provider; throws ApiError provider_unavailable when it cannot confirm. */
  revoke(deps: Deps, tokens: StoredTokens): Promise<void>;
  /** What the connected account does as a mailbox, for a provider that is one. */
  mailbox?: Mailbox;
}
