// Google's OAuth 2.0 calls as the connector makes them, and how every Google call is made and fails
// (ProviderError). The same code runs in live mode (Google) and sandbox mode (the service's own provider,
// src/sandbox/): only the endpoints and the client differ (google-endpoints.ts). Provider endpoints are
// configuration, not user input, so these calls use the plain fetch with a time limit rather than the
// SSRF-guarded client. The Gmail send is in gmail-send.ts.
import type { GmailEndpoints } from '../../../outbound/provider-endpoints.ts';

/** Why a provider call failed: `invalid_grant` (the refresh token is dead: reconnect), `unauthorized`, or the provider misbehaving. */
export class ProviderError extends Error {
  constructor(
    readonly kind:
      | 'invalid_grant'
      | 'invalid_request'
      | 'unauthorized'
      | 'forbidden'
      | 'not_found'
      | 'unavailable'
      | 'bad_response',
    message: string,
    readonly status?: number,
    /**
     * What else the answer said: Google's error message and first error reason (e.g. insufficientPermissions),
     * Retry-After, and whether the request never left (no connection).
     */
    readonly detail: {
      providerMessage?: string;
      providerReason?: string;
      retryAfterSeconds?: number;
      notSent?: boolean;
    } = {},
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

// Failures that happen before a request is written: the provider cannot have acted on it.
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  expiresIn: number;
  scopes: string[];
}

const TIMEOUT_MS = 15_000;

export async function call(url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    throw new ProviderError(
      'unavailable',
      `${what}: the provider could not be reached (${code ?? (error as Error).name})`,
      undefined,
      { notSent: code !== undefined && NOT_SENT_CODES.has(code) },
    );
  }
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

export async function json(response: Response, what: string): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ProviderError(
      'bad_response',
      `${what}: the provider answered ${response.status} without JSON`,
      response.status,
    );
  }
  // JSON that is not an object has none of the fields the callers look for.
  return isObject(body) ? body : {};
}

function tokenSet(body: Record<string, unknown>, what: string): TokenSet {
  const { access_token: accessToken, refresh_token: refreshToken, expires_in: expiresIn, scope } = body;
  if (typeof accessToken !== 'string' || !accessToken)
    throw new ProviderError('bad_response', `${what}: no access_token in the answer`);
  return {
    accessToken,
    refreshToken: typeof refreshToken === 'string' && refreshToken ? refreshToken : undefined,
    expiresIn: typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn : 3600,
    scopes: typeof scope === 'string' ? scope.split(/\s+/).filter(Boolean) : [],
  };
}

async function tokenError(response: Response, what: string): Promise<never> {
  const body = await json(response, what).catch((): Record<string, unknown> => ({}));
  const code = typeof body.error === 'string' ? body.error : '';
  if (code === 'invalid_grant')
    throw new ProviderError('invalid_grant', `${what}: the grant is invalid or expired`, response.status);
  if (response.status >= 500)
    throw new ProviderError('unavailable', `${what}: the provider answered ${response.status}`, response.status);
  if (code === 'invalid_client' || response.status === 401)
    throw new ProviderError(
      'unauthorized',
      `${what}: the provider refused our client (${code || response.status})`,
      response.status,
    );
  throw new ProviderError(
    'invalid_request',
    `${what}: the provider refused the request (${code || response.status})`,
    response.status,
  );
}

export interface AuthorizationRequest {
  state: string;
  codeChallenge: string;
  redirectUri: string;
  loginHint?: string;
  /** The scopes to ask for (GMAIL_SCOPES and those of the capabilities asked). */
  scopes: string[];
  /** Whether the grant may add scopes granted before (default true; see includeGrantedScopes). */
  includeGrantedScopes?: boolean;
}

export function authorizationUrl(endpoints: GmailEndpoints, request: AuthorizationRequest): string {
  const url = new URL(endpoints.authorizationUrl);
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: endpoints.clientId,
    redirect_uri: request.redirectUri,
    scope: request.scopes.join(' '),
    state: request.state,
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
    access_type: 'offline',
    prompt: 'consent',
    ...(request.includeGrantedScopes === false ? {} : { include_granted_scopes: 'true' }),
    ...(request.loginHint ? { login_hint: request.loginHint } : {}),
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}

function form(values: Record<string, string>): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(values).toString(),
  };
}

export async function exchangeCode(
  endpoints: GmailEndpoints,
  request: { code: string; verifier: string; redirectUri: string },
): Promise<TokenSet> {
  const what = 'code exchange';
  const response = await call(
    endpoints.tokenUrl,
    form({
      grant_type: 'authorization_code',
      code: request.code,
      code_verifier: request.verifier,
      redirect_uri: request.redirectUri,
      client_id: endpoints.clientId,
      client_secret: endpoints.clientSecret,
    }),
    what,
  );
  if (!response.ok) return tokenError(response, what);
  return tokenSet(await json(response, what), what);
}

export async function refreshAccessToken(endpoints: GmailEndpoints, refreshToken: string): Promise<TokenSet> {
  const what = 'token refresh';
  const response = await call(
    endpoints.tokenUrl,
    form({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: endpoints.clientId,
      client_secret: endpoints.clientSecret,
    }),
    what,
  );
  if (!response.ok) return tokenError(response, what);
  return tokenSet(await json(response, what), what);
}

/** Revokes the grant behind a token (Google revokes the whole grant for either token). A token already invalid counts as revoked. */
export async function revokeToken(endpoints: GmailEndpoints, token: string): Promise<void> {
  const what = 'revocation';
  const response = await call(endpoints.revocationUrl, form({ token }), what);
  if (response.ok) return;
  const body = await json(response, what).catch((): Record<string, unknown> => ({}));
  if (response.status === 400 && body.error === 'invalid_token') return;
  throw new ProviderError(
    response.status >= 500 ? 'unavailable' : 'invalid_request',
    `${what}: the provider answered ${response.status}`,
    response.status,
  );
}

export async function fetchUserinfo(
  endpoints: GmailEndpoints,
  accessToken: string,
): Promise<{ email: string; sub?: string }> {
  const what = 'userinfo';
  const response = await call(
    endpoints.userinfoUrl,
    { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } },
    what,
  );
  if (response.status === 401) throw new ProviderError('unauthorized', `${what}: the access token was refused`, 401);
  if (!response.ok)
    throw new ProviderError(
      response.status >= 500 ? 'unavailable' : 'bad_response',
      `${what}: the provider answered ${response.status}`,
      response.status,
    );
  const body = await json(response, what);
  if (typeof body.email !== 'string' || !body.email)
    throw new ProviderError('bad_response', `${what}: no email in the answer`);
  return { email: body.email, sub: typeof body.sub === 'string' ? body.sub : undefined };
}
