// Sandbox mode's ads platform, part one: the service plays Facebook Login (the OAuth dialog and the
// token endpoint) for meta_ads connectors, as strictly as the connector's correctness needs: our app
// id and secret, the exact redirect URI, PKCE S256, single-use codes that expire in 10 minutes, and the
// ads permissions. Grants and tokens share the sandbox tables of the Google sandbox (src/sandbox/
// google-provider.ts). The Graph API it serves is in meta-ads-api.ts. Not part of the API contract.
import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import { findStateWorkspace } from '../handlers/connectors/oauth-states-data.ts';
import { findWorkspace } from '../handlers/users/workspaces-data.ts';
import {
  claimSandboxCodeByHash,
  insertSandboxGrant,
  insertSandboxToken,
  revokeSandboxGrant,
} from '../handlers/connectors/sandbox-data.ts';
import type { Deps } from '../deps.ts';
import { META_ADS_SCOPES, META_SANDBOX_APP_ID, META_SANDBOX_PREFIX } from '../handlers/connectors/meta/graph-client.ts';
import { metaAdsApiRoutes, metaAdsApiPaths } from './meta-ads-api.ts';
import { graphError } from './meta-graph-wire.ts';
import { accountField, checkAccount, type AccountEntry } from './consent-account.ts';
import { escapeHtml } from '../http/page.ts';
import { constantTimeEqual, redirectTo, sandboxPage, storableProviderInput } from './provider-responses.ts';

const CODE_TTL_MS = 10 * 60 * 1000;
/** Meta's long-lived user token: about 60 days. */
const ACCESS_TTL_SECONDS = 60 * 24 * 3600;
const FORM_TTL_MS = 30 * 60 * 1000;
// login_hint is the sandbox's own: Facebook's dialog has none, but the sandbox pre-fills its login as Google's does.
const AUTH_PARAMS = [
  'client_id',
  'redirect_uri',
  'state',
  'response_type',
  'scope',
  'code_challenge',
  'code_challenge_method',
  'login_hint',
] as const;
const hash = (value: string) => createHash('sha256').update(value).digest('hex');
const labels: Record<string, string> = {
  ads_management: 'Manage your ads (ads_management)',
  ads_read: 'Read your ads performance (ads_read)',
};

export function sandboxMetaRoutes(app: Hono<any>, deps: Deps): void {
  const formKey = Buffer.from(
    hkdfSync('sha256', deps.auth.apiKeyPepper, new Uint8Array(0), 'service-mcp sandbox meta consent form v1', 32),
  );
  const base = META_SANDBOX_PREFIX;
  app.use(`${base}/*`, storableProviderInput);
  const canonical = (p: URLSearchParams) => AUTH_PARAMS.map((k) => `${k}=${p.get(k) ?? ''}`).join('&');
  const sign = (p: URLSearchParams, issued: string) =>
    createHmac('sha256', formKey)
      .update(`${canonical(p)}|${issued}`)
      .digest('base64url');

  async function checkDialog(
    params: URLSearchParams,
  ): Promise<{ error?: Response; workspaceId?: string; workspaceName?: string }> {
    const get = (k: string) => params.get(k) ?? '';
    if (get('client_id') !== META_SANDBOX_APP_ID)
      return { error: sandboxPage(400, 'Invalid App ID', '<p>The app was not found.</p>') };
    if (get('redirect_uri') !== deps.connectors.redirectUri)
      return {
        error: sandboxPage(
          400,
          "URL can't be loaded",
          "<p>The redirect URI is not among the app's valid OAuth redirect URIs.</p>",
        ),
      };
    if (get('response_type') !== 'code')
      return { error: sandboxPage(400, 'Invalid request', '<p>Only response_type=code is supported.</p>') };
    if (get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(get('code_challenge')))
      return { error: sandboxPage(400, 'Invalid request', '<p>PKCE with S256 is required.</p>') };
    const scopes = get('scope').split(',').filter(Boolean);
    if (scopes.length === 0 || scopes.some((s) => !META_ADS_SCOPES.includes(s)))
      return {
        error: sandboxPage(
          400,
          'Invalid Scopes',
          '<p>The request asks for a permission this sandbox does not offer.</p>',
        ),
      };
    const known = get('state') ? await findStateWorkspace(deps.db.sql, hash(get('state'))) : undefined;
    if (!known)
      return {
        error: sandboxPage(
          400,
          'Invalid request',
          '<p>This sandbox serves only consent links issued by this service.</p>',
        ),
      };
    const workspace = await findWorkspace(deps.db.sql, known.workspace_id);
    return { workspaceId: known.workspace_id, workspaceName: workspace?.name };
  }

  /** The login dialog; shown again with the login typed and why it was refused. */
  /** `workspace` is the one asking, named on the page. */
  function dialogPage(status: number, params: URLSearchParams, entry: AccountEntry, workspace = ''): Response {
    const issued = String(Date.now());
    const hidden = AUTH_PARAMS.filter((k) => params.has(k))
      .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(params.get(k) as string)}">`)
      .join('\n');
    const scopes = (params.get('scope') as string).split(',');
    const body = `
<p><strong>service-mcp (sandbox)</strong>${workspace ? ` for the workspace <strong>${escapeHtml(workspace)}</strong>` : ''} wants to manage ads for your ad account. Nothing will be spent: the sandbox delivers no ads.</p>
<form method="post" action="${escapeHtml(`${base}/dialog/oauth`)}">
${hidden}
<input type="hidden" name="issued" value="${issued}">
<input type="hidden" name="csrf" value="${sign(params, issued)}">
${accountField('Sandbox login', entry)}
<fieldset><legend>This will allow service-mcp (sandbox) to:</legend>
${scopes.map((s, i) => `<p><input type="checkbox" id="scope${i}" name="granted_scope" value="${escapeHtml(s)}" checked> <label for="scope${i}">${escapeHtml(labels[s] ?? s)}</label></p>`).join('\n')}
</fieldset>
<p><button type="submit" name="decision" value="allow">Continue</button> <button type="submit" name="decision" value="deny">Cancel</button></p>
</form>`;
    return sandboxPage(status, 'Log in with Facebook (sandbox)', body, deps.connectors.redirectUri);
  }

  app.get(`${base}/dialog/oauth`, async (c) => {
    const params = new URL(c.req.url).searchParams;
    const checked = await checkDialog(params);
    if (checked.error) return checked.error;
    return dialogPage(200, params, { value: params.get('login_hint') ?? '' }, checked.workspaceName);
  });

  app.post(`${base}/dialog/oauth`, async (c) => {
    const form = new URLSearchParams(await c.req.text());
    const params = new URLSearchParams();
    for (const k of AUTH_PARAMS) if (form.has(k)) params.set(k, form.get(k) as string);
    const issued = form.get('issued') ?? '';
    const age = Date.now() - Number(issued);
    if (
      !/^\d+$/.test(issued) ||
      !(age >= 0 && age < FORM_TTL_MS) ||
      !constantTimeEqual(form.get('csrf') ?? '', sign(params, issued))
    ) {
      return sandboxPage(
        403,
        'This consent form is not valid',
        '<p>The form expired or did not come from this page. Open the consent link again.</p>',
      );
    }
    const checked = await checkDialog(params);
    if (checked.error) return checked.error;
    const redirectUri = params.get('redirect_uri') as string;
    const state = params.get('state') as string;
    if (form.get('decision') !== 'allow')
      return redirectTo(redirectUri, { error: 'access_denied', error_reason: 'user_denied', state });
    const checkedAccount = checkAccount(form.get('account_email') ?? '');
    if (!checkedAccount.ok) return dialogPage(400, params, checkedAccount.entry, checked.workspaceName);
    const account = checkedAccount.email;
    const requested = (params.get('scope') as string).split(',');
    const granted = form.getAll('granted_scope').filter((s) => requested.includes(s));
    const code = `sbxcode-${randomBytes(32).toString('base64url')}`;
    const now = deps.clock.now();
    await insertSandboxGrant(deps.db.sql, checked.workspaceId as string, deps.ids, {
      accountEmail: account,
      scopes: granted,
      clientId: META_SANDBOX_APP_ID,
      redirectUri,
      codeHash: hash(code),
      codeChallenge: params.get('code_challenge') as string,
      codeExpiresAt: new Date(now.getTime() + CODE_TTL_MS),
      now,
    });
    return redirectTo(redirectUri, { code, state });
  });

  app.get(`${base}/oauth/access_token`, async (c) => {
    const q = new URL(c.req.url).searchParams;
    if (
      q.get('client_id') !== META_SANDBOX_APP_ID ||
      !constantTimeEqual(q.get('client_secret') ?? '', deps.connectors.meta.appSecret)
    ) {
      return graphError(400, 'Error validating client secret.', 'OAuthException', 1);
    }
    const now = deps.clock.now();
    const code = q.get('code') ?? '';
    const grant = code ? await claimSandboxCodeByHash(deps.db.sql, hash(code), now) : undefined;
    if (!grant || grant.client_id !== META_SANDBOX_APP_ID)
      return graphError(400, 'Invalid verification code format.', 'OAuthException', 100);
    if (grant.code_used_at) {
      await revokeSandboxGrant(deps.db.sql, grant.id, now);
      return graphError(400, 'This authorization code has been used.', 'OAuthException', 100);
    }
    if (grant.revoked_at || grant.code_expires_at.getTime() <= now.getTime())
      return graphError(400, 'This authorization code has expired.', 'OAuthException', 100);
    if (q.get('redirect_uri') !== grant.redirect_uri)
      return graphError(
        400,
        'Error validating verification code. Please make sure your redirect_uri is identical.',
        'OAuthException',
        100,
      );
    const verifier = q.get('code_verifier') ?? '';
    if (
      !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) ||
      !constantTimeEqual(createHash('sha256').update(verifier).digest('base64url'), grant.code_challenge)
    ) {
      return graphError(400, 'Invalid code verifier.', 'OAuthException', 100);
    }
    const access = `sbxtok-${randomBytes(32).toString('base64url')}`;
    await insertSandboxToken(deps.db.sql, grant.id, {
      tokenHash: hash(access),
      kind: 'access',
      expiresAt: new Date(now.getTime() + ACCESS_TTL_SECONDS * 1000),
      now,
    });
    return c.json({ access_token: access, token_type: 'bearer', expires_in: ACCESS_TTL_SECONDS }, 200, {
      'cache-control': 'no-store',
    });
  });

  metaAdsApiRoutes(app, deps);
}

export const sandboxMetaPaths = [
  { path: `${META_SANDBOX_PREFIX}/dialog/oauth`, methods: ['GET', 'POST'] },
  { path: `${META_SANDBOX_PREFIX}/oauth/access_token`, methods: ['GET'] },
  ...metaAdsApiPaths,
];
