// Meta's OAuth dialog, token endpoint and Graph (Marketing) API, as the meta_ads connector uses them.
// Live mode points at Meta; sandbox mode at the service's own ads platform (src/sandbox/meta-provider.ts);
// tests at a local fake. Only the endpoints differ. Provider endpoints are configuration, not user input,
// so these calls use the plain fetch with a time limit rather than the SSRF-guarded client.
import type { MetaConfig } from '../../../provider-config.ts';
import type { MetaEndpoints } from '../../../outbound/provider-endpoints.ts';

/** Least scope: managing ads, and reading their delivery. */
export const META_ADS_SCOPES = ['ads_management', 'ads_read'];
export const META_SANDBOX_PREFIX = '/sandbox/meta';
export const META_SANDBOX_APP_ID = 'service-mcp-sandbox-app';

export function metaEndpoints(
  meta: MetaConfig,
  sandbox: { publicBaseUrl: string; internalUrl: string; clientSecret: string },
): MetaEndpoints {
  if (meta.appId && meta.appSecret) {
    return {
      mode: 'live',
      appId: meta.appId,
      appSecret: meta.appSecret,
      authorizationUrl: meta.authorizationUrl,
      tokenUrl: meta.tokenUrl,
      graphApiBase: meta.graphApiBase,
    };
  }
  const server = `${sandbox.internalUrl}${META_SANDBOX_PREFIX}`;
  return {
    mode: 'sandbox',
    appId: META_SANDBOX_APP_ID,
    appSecret: sandbox.clientSecret,
    authorizationUrl: `${sandbox.publicBaseUrl.replace(/\/$/, '')}${META_SANDBOX_PREFIX}/dialog/oauth`,
    tokenUrl: `${server}/oauth/access_token`,
    graphApiBase: server,
  };
}

/**
 * Why a Graph call failed. `token_expired`: OAuthException 190, the human must reconnect.
 * `rate_limited`: codes 4, 17, 32, 613, 80000–80014, try later. `refused`: the platform said no to
 * this request (its message says why). `unavailable`: not reached, or a 5xx.
 */
export class GraphError extends Error {
  constructor(
    readonly kind: 'token_expired' | 'rate_limited' | 'refused' | 'unavailable',
    message: string,
    readonly code?: number,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'GraphError';
  }
}

const RATE_LIMIT_CODES = new Set([4, 17, 32, 613]);
const TIMEOUT_MS = 15_000;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

async function call(url: string, init: RequestInit, what: string): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new GraphError('unavailable', `${what}: the ads platform could not be reached (${(error as Error).name})`);
  }
  const body: unknown = await response.json().catch(() => undefined);
  // A success whose JSON is not an object (a bare `true`, say) has no fields to read.
  if (response.ok && body) return isObject(body) ? body : {};
  const err: Record<string, unknown> = isObject(body) && isObject(body.error) ? body.error : {};
  const code = typeof err.code === 'number' ? err.code : undefined;
  const message = `${what}: ${typeof err.error_user_msg === 'string' ? err.error_user_msg : typeof err.message === 'string' ? err.message : `answered ${response.status}`}`;
  if (code === 190) throw new GraphError('token_expired', message, code, response.status);
  if (code !== undefined && (RATE_LIMIT_CODES.has(code) || (code >= 80000 && code <= 80014)))
    throw new GraphError('rate_limited', message, code, response.status);
  if (response.status >= 500 || !body) throw new GraphError('unavailable', message, code, response.status);
  throw new GraphError('refused', message, code, response.status);
}

export function metaAuthorizationUrl(
  e: MetaEndpoints,
  request: { state: string; codeChallenge: string; redirectUri: string; loginHint?: string },
): string {
  const url = new URL(e.authorizationUrl);
  const params = {
    client_id: e.appId,
    redirect_uri: request.redirectUri,
    state: request.state,
    response_type: 'code',
    scope: META_ADS_SCOPES.join(','),
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  // Facebook's dialog takes no login hint; the sandbox's pre-fills its login field with it, as Google's does.
  if (e.mode === 'sandbox' && request.loginHint) url.searchParams.set('login_hint', request.loginHint);
  return url.href;
}

export async function exchangeMetaCode(
  e: MetaEndpoints,
  request: { code: string; verifier: string; redirectUri: string },
): Promise<{ accessToken: string; expiresIn: number }> {
  const url = new URL(e.tokenUrl);
  const params = {
    client_id: e.appId,
    client_secret: e.appSecret,
    redirect_uri: request.redirectUri,
    code: request.code,
    code_verifier: request.verifier,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const body = await call(url.href, { headers: { accept: 'application/json' } }, 'code exchange');
  if (typeof body.access_token !== 'string' || !body.access_token)
    throw new GraphError('refused', 'code exchange: no access_token in the answer');
  // Long-lived user tokens last about 60 days and cannot be refreshed: the human reconnects.
  return {
    accessToken: body.access_token,
    expiresIn: typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 60 * 24 * 3600,
  };
}

export function graphGet(
  e: MetaEndpoints,
  token: string,
  path: string,
  params: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const url = new URL(`${e.graphApiBase}/${path}`);
  for (const [k, v] of Object.entries({ ...params, access_token: token })) url.searchParams.set(k, v);
  return call(url.href, { headers: { accept: 'application/json' } }, `GET ${path}`);
}

/** A Graph POST: form fields, objects as JSON strings, as the Marketing API takes them. */
export function graphPost(
  e: MetaEndpoints,
  token: string,
  path: string,
  fields: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(fields))
    if (v !== undefined) form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  form.set('access_token', token);
  return call(
    `${e.graphApiBase}/${path}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
    },
    `POST ${path}`,
  );
}

/** The first ad account the token can manage (`act_…`). */
export async function firstAdAccount(e: MetaEndpoints, token: string): Promise<string> {
  const body = await graphGet(e, token, 'me/adaccounts', { fields: 'id,name,currency' });
  const first = Array.isArray(body.data) ? (body.data[0] as { id?: unknown } | undefined) : undefined;
  if (typeof first?.id !== 'string')
    throw new GraphError('refused', 'me/adaccounts: the account has no ad account this app may manage');
  return first.id;
}

/** Gives the grant back (DELETE /me/permissions); an already dead token counts as given back. */
export async function revokeMetaGrant(e: MetaEndpoints, token: string): Promise<void> {
  const url = new URL(`${e.graphApiBase}/me/permissions`);
  url.searchParams.set('access_token', token);
  try {
    await call(url.href, { method: 'DELETE', headers: { accept: 'application/json' } }, 'DELETE me/permissions');
  } catch (error) {
    if (error instanceof GraphError && error.kind === 'token_expired') return;
    throw error;
  }
}
