// Sandbox mode's provider: the service plays Google's OAuth 2.0 server and the Gmail send API, so
// the whole connector flow runs on a fresh machine with no Google account. It is as strict as Google
// where the connector's correctness depends on it: the client id and secret, the exact redirect URI,
// PKCE S256 (a verifier is required and must match), single-use codes that expire in 10 minutes (a
// replayed code revokes what it issued), refresh tokens, revocation, and bearer tokens with the
// gmail.send scope for sending. This file is the consent page; google-token.ts exchanges and revokes
// tokens, gmail-api.ts serves what they open. Not part of the API contract: these routes imitate
// Google's, under /sandbox/google.
import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import { findStateWorkspace } from '../handlers/connectors/oauth-states-data.ts';
import { findWorkspace } from '../handlers/users/workspaces-data.ts';
import { insertSandboxGrant } from '../handlers/connectors/sandbox-data.ts';
import type { Deps } from '../deps.ts';
import {
  GMAIL_OFFERED_SCOPES,
  GMAIL_METADATA_SCOPE,
  GMAIL_READONLY_SCOPE,
  GMAIL_SEND_SCOPE,
  SANDBOX_CLIENT_ID,
  SANDBOX_PREFIX,
} from '../handlers/connectors/google/google-endpoints.ts';
import { gmailApiRoutes } from './gmail-api.ts';
import { googleTokenRoutes } from './google-token.ts';
import { accountField, checkAccount, type AccountEntry } from './consent-account.ts';
import { escapeHtml } from '../http/page.ts';
import { constantTimeEqual, redirectTo, sandboxPage, storableProviderInput } from './provider-responses.ts';

const CODE_TTL_MS = 10 * 60 * 1000;
const FORM_TTL_MS = 30 * 60 * 1000;
const hash = (value: string) => createHash('sha256').update(value).digest('hex');
const token = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

const scopeLabels: Record<string, string> = {
  openid: 'Associate you with your personal info (openid)',
  email: 'See your primary email address (email)',
  [GMAIL_SEND_SCOPE]: 'Send email on your behalf (gmail.send)',
  [GMAIL_METADATA_SCOPE]:
    'View your email message metadata such as labels and headers, but not the email body (gmail.metadata)',
  [GMAIL_READONLY_SCOPE]: 'View your email messages and settings (gmail.readonly)',
};

const AUTH_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'access_type',
  'prompt',
  'include_granted_scopes',
  'login_hint',
] as const;

export function sandboxProviderRoutes(app: Hono<any>, deps: Deps): void {
  const formKey = Buffer.from(
    hkdfSync('sha256', deps.auth.apiKeyPepper, new Uint8Array(0), 'service-mcp sandbox consent form v1', 32),
  );
  const base = SANDBOX_PREFIX;
  app.use(`${base}/*`, storableProviderInput);
  const sign = (params: string, issued: string) =>
    createHmac('sha256', formKey).update(`${params}|${issued}`).digest('base64url');

  /** The checks Google makes before showing consent: our client, its registered redirect URI, PKCE S256, a known state. */
  async function checkAuthRequest(
    params: URLSearchParams,
  ): Promise<{ error?: Response; workspaceId?: string; workspaceName?: string }> {
    const get = (k: string) => params.get(k) ?? '';
    if (get('client_id') !== SANDBOX_CLIENT_ID)
      return { error: sandboxPage(400, 'Error 401: invalid_client', '<p>The OAuth client was not found.</p>') };
    if (get('redirect_uri') !== deps.connectors.redirectUri) {
      return {
        error: sandboxPage(
          400,
          'Error 400: redirect_uri_mismatch',
          `<p>The redirect URI in the request, ${escapeHtml(get('redirect_uri'))}, does not match the one registered for this client.</p>`,
        ),
      };
    }
    if (get('response_type') !== 'code')
      return {
        error: sandboxPage(400, 'Error 400: unsupported_response_type', '<p>Only response_type=code is supported.</p>'),
      };
    if (get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(get('code_challenge'))) {
      return {
        error: sandboxPage(
          400,
          'Error 400: invalid_request',
          '<p>PKCE with code_challenge_method=S256 is required.</p>',
        ),
      };
    }
    const scopes = get('scope').split(/\s+/).filter(Boolean);
    if (scopes.length === 0 || scopes.some((s) => !GMAIL_OFFERED_SCOPES.includes(s)))
      return {
        error: sandboxPage(
          400,
          'Error 400: invalid_scope',
          '<p>The request asks for a scope this sandbox does not offer.</p>',
        ),
      };
    const state = get('state');
    const known = state ? await findStateWorkspace(deps.db.sql, hash(state)) : undefined;
    if (!known)
      return {
        error: sandboxPage(
          400,
          'Error 400: invalid_request',
          '<p>This sandbox serves only consent links issued by this service, and this one is not among them.</p>',
        ),
      };
    const workspace = await findWorkspace(deps.db.sql, known.workspace_id);
    return { workspaceId: known.workspace_id, workspaceName: workspace?.name };
  }

  const canonical = (params: URLSearchParams) => AUTH_PARAMS.map((k) => `${k}=${params.get(k) ?? ''}`).join('&');

  /** The consent page; shown again with the account typed and why it was refused. */
  /** `workspace` is the one asking, named on the page. */
  function consentPage(status: number, params: URLSearchParams, entry: AccountEntry, workspace = ''): Response {
    const issued = String(Date.now());
    const hidden = AUTH_PARAMS.filter((k) => params.has(k))
      .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(params.get(k) as string)}">`)
      .join('\n');
    const scopes = (params.get('scope') as string).split(/\s+/).filter(Boolean);
    const body = `
<p><strong>service-mcp (sandbox)</strong>${workspace ? ` for the workspace <strong>${escapeHtml(workspace)}</strong>` : ''} wants to access your account.</p>
<form method="post" action="${escapeHtml(`${base}/o/oauth2/v2/auth`)}">
${hidden}
<input type="hidden" name="issued" value="${issued}">
<input type="hidden" name="csrf" value="${sign(canonical(params), issued)}">
${accountField('Sandbox account', entry)}
<fieldset><legend>This will allow service-mcp (sandbox) to:</legend>
${scopes.map((s, i) => `<p><input type="checkbox" id="scope${i}" name="granted_scope" value="${escapeHtml(s)}" checked> <label for="scope${i}">${escapeHtml(scopeLabels[s] ?? s)}</label></p>`).join('\n')}
</fieldset>
<p><button type="submit" name="decision" value="allow">Allow</button> <button type="submit" name="decision" value="deny">Deny</button></p>
</form>`;
    return sandboxPage(status, 'Sign in with Google (sandbox)', body, deps.connectors.redirectUri);
  }

  app.get(`${base}/o/oauth2/v2/auth`, async (c) => {
    const params = new URL(c.req.url).searchParams;
    const checked = await checkAuthRequest(params);
    if (checked.error) return checked.error;
    return consentPage(200, params, { value: params.get('login_hint') ?? '' }, checked.workspaceName);
  });

  app.post(`${base}/o/oauth2/v2/auth`, async (c) => {
    const form = new URLSearchParams(await c.req.text());
    const params = new URLSearchParams();
    for (const k of AUTH_PARAMS) if (form.has(k)) params.set(k, form.get(k) as string);
    const issued = form.get('issued') ?? '';
    const age = Date.now() - Number(issued);
    if (
      !/^\d+$/.test(issued) ||
      !(age >= 0 && age < FORM_TTL_MS) ||
      !constantTimeEqual(form.get('csrf') ?? '', sign(canonical(params), issued))
    ) {
      return sandboxPage(
        403,
        'This consent form is not valid',
        '<p>The form expired or did not come from this consent page. Open the consent link again.</p>',
      );
    }
    const checked = await checkAuthRequest(params);
    if (checked.error) return checked.error;
    const redirectUri = params.get('redirect_uri') as string;
    const state = params.get('state') as string;
    if (form.get('decision') !== 'allow') return redirectTo(redirectUri, { error: 'access_denied', state });
    const checkedAccount = checkAccount(form.get('account_email') ?? '');
    if (!checkedAccount.ok) return consentPage(400, params, checkedAccount.entry, checked.workspaceName);
    const account = checkedAccount.email;
    const requested = (params.get('scope') as string).split(/\s+/);
    const granted = form.getAll('granted_scope').filter((s) => requested.includes(s));
    const code = token('4/sandbox-');
    const now = deps.clock.now();
    await insertSandboxGrant(deps.db.sql, checked.workspaceId as string, deps.ids, {
      accountEmail: account,
      scopes: granted,
      clientId: SANDBOX_CLIENT_ID,
      redirectUri,
      codeHash: hash(code),
      codeChallenge: params.get('code_challenge') as string,
      codeExpiresAt: new Date(now.getTime() + CODE_TTL_MS),
      now,
    });
    return redirectTo(redirectUri, { code, state, scope: granted.join(' ') });
  });

  googleTokenRoutes(app, deps);
  gmailApiRoutes(app, deps);
}

/** The sandbox provider's routes, for the 405/404 answers of paths outside the contract. */
export const sandboxPaths = [
  { path: `${SANDBOX_PREFIX}/o/oauth2/v2/auth`, methods: ['GET', 'POST'] },
  { path: `${SANDBOX_PREFIX}/token`, methods: ['POST'] },
  { path: `${SANDBOX_PREFIX}/revoke`, methods: ['POST'] },
  { path: `${SANDBOX_PREFIX}/v1/userinfo`, methods: ['GET'] },
  { path: `${SANDBOX_PREFIX}/gmail/v1/users/me/messages/send`, methods: ['POST'] },
];
