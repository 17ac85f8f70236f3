// The outside providers (Google, Meta): their endpoints and our credentials; without credentials, sandbox mode.
import type { Env } from './config-values.ts';

/**
 * Google's OAuth and Gmail endpoints and our OAuth client. With GOOGLE_CLIENT_ID and
 * GOOGLE_CLIENT_SECRET set, gmail connectors are live; without them they run in sandbox mode
 * against the service's own provider (src/sandbox/), through the same code with other endpoints.
 */
export interface GoogleConfig {
  clientId?: string;
  clientSecret?: string;
  authorizationUrl: string;
  tokenUrl: string;
  revocationUrl: string;
  userinfoUrl: string;
  gmailApiBase: string;
}

/**
 * Meta's OAuth dialog, token endpoint and Graph API, and our app. With META_APP_ID and
 * META_APP_SECRET set, meta_ads connectors are live; without them they run in sandbox mode against
 * the service's own ads platform (src/sandbox/meta-provider.ts).
 */
export interface MetaConfig {
  appId?: string;
  appSecret?: string;
  authorizationUrl: string;
  tokenUrl: string;
  graphApiBase: string;
}

export function loadGoogleConfig(env: Env): GoogleConfig {
  return {
    clientId: env.GOOGLE_CLIENT_ID || undefined,
    clientSecret: env.GOOGLE_CLIENT_SECRET || undefined,
    authorizationUrl: env.GOOGLE_AUTHORIZATION_URL || 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: env.GOOGLE_TOKEN_URL || 'https://oauth2.googleapis.com/token',
    revocationUrl: env.GOOGLE_REVOCATION_URL || 'https://oauth2.googleapis.com/revoke',
    userinfoUrl: env.GOOGLE_USERINFO_URL || 'https://openidconnect.googleapis.com/v1/userinfo',
    gmailApiBase: env.GMAIL_API_BASE || 'https://gmail.googleapis.com',
  };
}

export function loadMetaConfig(env: Env): MetaConfig {
  return {
    appId: env.META_APP_ID || undefined,
    appSecret: env.META_APP_SECRET || undefined,
    authorizationUrl: env.META_AUTHORIZATION_URL || 'https://www.facebook.com/v21.0/dialog/oauth',
    tokenUrl: env.META_TOKEN_URL || 'https://graph.facebook.com/v21.0/oauth/access_token',
    graphApiBase: (env.META_GRAPH_API_BASE || 'https://graph.facebook.com/v21.0').replace(/\/$/, ''),
  };
}
