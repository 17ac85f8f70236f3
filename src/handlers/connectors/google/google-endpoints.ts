// Where the connector finds Google: the scopes it asks for, and the live or sandbox endpoints and client.
import { hkdfSync } from 'node:crypto';
import type { GoogleConfig } from '../../../provider-config.ts';
import type { GmailEndpoints } from '../../../outbound/provider-endpoints.ts';

export const GMAIL_SEND_SCOPE = 'https://www.googleapis.com/auth/gmail.send';
/** Headers, labels and history, never bodies: enough to see replies, auto-replies and bounces (restricted at Google). */
export const GMAIL_METADATA_SCOPE = 'https://www.googleapis.com/auth/gmail.metadata';
/** Whole messages, read only: to show what the lead wrote (restricted at Google). */
export const GMAIL_READONLY_SCOPE = 'https://www.googleapis.com/auth/gmail.readonly';
/** Least scope: sending, plus the account's address. */
export const GMAIL_SCOPES = ['openid', 'email', GMAIL_SEND_SCOPE];

export type GmailCapability = 'send' | 'read_replies' | 'read_reply_text';

/**
 * The scopes each capability adds to GMAIL_SCOPES. read_reply_text asks for gmail.readonly alone: it reads
 * headers too, and Google applies gmail.metadata's limits (no format=full, no `q`) to any token carrying it,
 * even beside gmail.readonly.
 */
export const CAPABILITY_SCOPES: Record<GmailCapability, string[]> = {
  send: [],
  read_replies: [GMAIL_METADATA_SCOPE],
  read_reply_text: [GMAIL_READONLY_SCOPE],
};

/**
 * What a Gmail connector's granted scopes allow: gmail.readonly gives read_replies too, and read_reply_text
 * only without gmail.metadata beside it (whose limits would refuse every read of a message's text).
 */
export function capabilitiesFromScopes(granted: readonly string[]): GmailCapability[] {
  if (!granted.includes(GMAIL_SEND_SCOPE)) return [];
  const out: GmailCapability[] = ['send'];
  if (granted.includes(GMAIL_METADATA_SCOPE) || granted.includes(GMAIL_READONLY_SCOPE)) out.push('read_replies');
  if (granted.includes(GMAIL_READONLY_SCOPE) && !granted.includes(GMAIL_METADATA_SCOPE)) out.push('read_reply_text');
  return out;
}

/** The scopes a consent asks for to give `capabilities` (sending always; gmail.readonly covers read_replies). */
export function gmailScopesFor(capabilities: readonly GmailCapability[]): string[] {
  const scopes = new Set([...GMAIL_SCOPES, ...capabilities.flatMap((c) => CAPABILITY_SCOPES[c])]);
  if (scopes.has(GMAIL_READONLY_SCOPE)) scopes.delete(GMAIL_METADATA_SCOPE);
  return [...scopes];
}

/**
 * Whether a consent may add the scopes granted before (include_granted_scopes): not when it asks for
 * gmail.readonly over a grant holding gmail.metadata, which would come back with it and limit the token.
 */
export const includeGrantedScopes = (granted: readonly string[], asked: readonly string[]): boolean =>
  !(asked.includes(GMAIL_READONLY_SCOPE) && granted.includes(GMAIL_METADATA_SCOPE));

/** Every scope a Gmail consent may ask for. */
export const GMAIL_OFFERED_SCOPES = [...GMAIL_SCOPES, GMAIL_METADATA_SCOPE, GMAIL_READONLY_SCOPE];

/** A connector's capabilities: a Gmail mailbox's from its granted scopes; none for others. */
export const connectorCapabilities = (c: { provider: string; scopes_granted: readonly string[] }): GmailCapability[] =>
  c.provider === 'gmail' ? capabilitiesFromScopes(c.scopes_granted) : [];
/** What a consent must have granted for the connector to be of use. */
export const GMAIL_REQUIRED_SCOPES = [GMAIL_SEND_SCOPE, 'email'];

export const SANDBOX_PREFIX = '/sandbox/google';
export const SANDBOX_CLIENT_ID = 'service-mcp-sandbox.apps.sandbox';

/** The sandbox client's secret, derived from the server secret (so it is stable and never stored). */
export function sandboxClientSecret(serverSecret: Uint8Array): string {
  return Buffer.from(
    hkdfSync('sha256', serverSecret, new Uint8Array(0), 'service-mcp sandbox oauth client v1', 24),
  ).toString('base64url');
}

export function gmailEndpoints(
  google: GoogleConfig,
  sandbox: { publicBaseUrl: string; internalUrl: string; clientSecret: string },
): GmailEndpoints {
  if (google.clientId && google.clientSecret) {
    return { mode: 'live', clientId: google.clientId, clientSecret: google.clientSecret, ...pick(google) };
  }
  const browser = `${sandbox.publicBaseUrl.replace(/\/$/, '')}${SANDBOX_PREFIX}`;
  const server = `${sandbox.internalUrl}${SANDBOX_PREFIX}`;
  return {
    mode: 'sandbox',
    clientId: SANDBOX_CLIENT_ID,
    clientSecret: sandbox.clientSecret,
    authorizationUrl: `${browser}/o/oauth2/v2/auth`,
    tokenUrl: `${server}/token`,
    revocationUrl: `${server}/revoke`,
    userinfoUrl: `${server}/v1/userinfo`,
    gmailApiBase: server,
  };
}

const pick = (g: GoogleConfig) => ({
  authorizationUrl: g.authorizationUrl,
  tokenUrl: g.tokenUrl,
  revocationUrl: g.revocationUrl,
  userinfoUrl: g.userinfoUrl,
  gmailApiBase: g.gmailApiBase,
});
