// Sandbox mode's provider: the service plays Google's OAuth 2.0 server and the Gmail send API, so
// the whole connector flow runs on a fresh machine with no Google account. It is as strict as Google
// where the connector's correctness depends on it: the client id and secret, the exact redirect URI,
// PKCE S256 (a verifier is required and must match), single-use codes that expire in 10 minutes (a
// replayed code revokes what it issued), refresh tokens, revocation, and bearer tokens with the
// gmail.send scope for sending. Messages sent are parsed and kept in the sandbox mailbox, never
// delivered. Not part of the API contract: these routes imitate Google's, under /sandbox/google.
import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import { simpleParser } from 'mailparser';
import { findStateWorkspace } from '../handlers/connectors/connectors-data.ts';
import {
  claimSandboxCodeByHash,
  findSandboxTokenByHash,
  insertSandboxGrant,
  insertSandboxMessage,
  insertSandboxToken,
  revokeSandboxGrant,
} from '../handlers/connectors/sandbox-data.ts';
import type { Deps } from '../deps.ts';
import {
  GMAIL_SCOPES,
  GMAIL_SEND_SCOPE,
  SANDBOX_CLIENT_ID,
  SANDBOX_PREFIX,
  sandboxClientSecret,
} from '../handlers/connectors/google/google-client.ts';
import { accountField, checkAccount, type AccountEntry } from './consent-account.ts';
import { escapeHtml } from '../http/page.ts';
import { constantTimeEqual, redirectTo, sandboxPage, storableProviderInput } from './provider-responses.ts';

const CODE_TTL_MS = 10 * 60 * 1000;
const ACCESS_TTL_SECONDS = 3600;
const FORM_TTL_MS = 30 * 60 * 1000;
const hash = (value: string) => createHash('sha256').update(value).digest('hex');
const token = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

const scopeLabels: Record<string, string> = {
  openid: 'Associate you with your personal info (openid)',
  email: 'See your primary email address (email)',
  [GMAIL_SEND_SCOPE]: 'Send email on your behalf (gmail.send)',
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

function oauthError(status: number, error: string, description: string): Response {
  return new Response(JSON.stringify({ error, error_description: description }), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

export function sandboxProviderRoutes(app: Hono<any>, deps: Deps): void {
  const formKey = Buffer.from(
    hkdfSync('sha256', deps.auth.apiKeyPepper, new Uint8Array(0), 'service-mcp sandbox consent form v1', 32),
  );
  const base = SANDBOX_PREFIX;
  app.use(`${base}/*`, storableProviderInput);
  const sign = (params: string, issued: string) =>
    createHmac('sha256', formKey).update(`${params}|${issued}`).digest('base64url');

  /** The checks Google makes before showing consent: our client, its registered redirect URI, PKCE S256, a known state. */
  async function checkAuthRequest(params: URLSearchParams): Promise<{ error?: Response; workspaceId?: string }> {
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
    if (scopes.length === 0 || scopes.some((s) => !GMAIL_SCOPES.includes(s)))
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
    return { workspaceId: known.workspace_id };
  }

  const canonical = (params: URLSearchParams) => AUTH_PARAMS.map((k) => `${k}=${params.get(k) ?? ''}`).join('&');

  /** The consent page; shown again with the account typed and why it was refused. */
  function consentPage(status: number, params: URLSearchParams, entry: AccountEntry): Response {
    const issued = String(Date.now());
    const hidden = AUTH_PARAMS.filter((k) => params.has(k))
      .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(params.get(k) as string)}">`)
      .join('\n');
    const scopes = (params.get('scope') as string).split(/\s+/).filter(Boolean);
    const body = `
<p><strong>service-mcp (sandbox)</strong> wants to access your account.</p>
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
    return consentPage(200, params, { value: params.get('login_hint') ?? '' });
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
    if (!checkedAccount.ok) return consentPage(400, params, checkedAccount.entry);
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

  app.post(`${base}/token`, async (c) => {
    const form = new URLSearchParams(await c.req.text());
    let clientId = form.get('client_id') ?? '';
    let clientSecret = form.get('client_secret') ?? '';
    const basic = /^Basic (.+)$/i.exec(c.req.header('authorization') ?? '');
    if (basic)
      [clientId, clientSecret] = Buffer.from(basic[1], 'base64')
        .toString('utf8')
        .split(':')
        .map(decodeURIComponent) as [string, string];
    if (
      clientId !== SANDBOX_CLIENT_ID ||
      !constantTimeEqual(
        clientSecret,
        deps.connectors.gmail.mode === 'sandbox'
          ? deps.connectors.gmail.clientSecret
          : sandboxClientSecret(deps.auth.apiKeyPepper),
      )
    ) {
      return oauthError(401, 'invalid_client', 'The OAuth client was not found.');
    }
    const now = deps.clock.now();
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      const code = form.get('code') ?? '';
      const verifier = form.get('code_verifier') ?? '';
      const grant = code ? await claimSandboxCodeByHash(deps.db.sql, hash(code), now) : undefined;
      if (!grant) return oauthError(400, 'invalid_grant', 'Malformed auth code.');
      if (grant.code_used_at) {
        // A code used twice may be stolen: what it issued is revoked, as Google does.
        await revokeSandboxGrant(deps.db.sql, grant.id, now);
        return oauthError(400, 'invalid_grant', 'Bad Request');
      }
      if (grant.revoked_at || grant.code_expires_at.getTime() <= now.getTime())
        return oauthError(400, 'invalid_grant', 'Bad Request');
      if (form.get('redirect_uri') !== grant.redirect_uri)
        return oauthError(400, 'redirect_uri_mismatch', 'Bad Request');
      if (
        !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) ||
        !constantTimeEqual(createHash('sha256').update(verifier).digest('base64url'), grant.code_challenge)
      ) {
        return oauthError(400, 'invalid_grant', 'Missing code verifier.');
      }
      const access = token('ya29.sandbox-');
      const refresh = token('1//sandbox-');
      await deps.db.sql.begin(async (tx) => {
        await insertSandboxToken(tx, grant.id, {
          tokenHash: hash(access),
          kind: 'access',
          expiresAt: new Date(now.getTime() + ACCESS_TTL_SECONDS * 1000),
          now,
        });
        await insertSandboxToken(tx, grant.id, { tokenHash: hash(refresh), kind: 'refresh', expiresAt: null, now });
      });
      return c.json(
        {
          access_token: access,
          expires_in: ACCESS_TTL_SECONDS - 1,
          refresh_token: refresh,
          scope: grant.scopes.join(' '),
          token_type: 'Bearer',
        },
        200,
        { 'cache-control': 'no-store' },
      );
    }
    if (grantType === 'refresh_token') {
      const found = await findSandboxTokenByHash(deps.db.sql, hash(form.get('refresh_token') ?? ''));
      if (!found || found.kind !== 'refresh' || found.revoked_at)
        return oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
      const access = token('ya29.sandbox-');
      await insertSandboxToken(deps.db.sql, found.grant.id, {
        tokenHash: hash(access),
        kind: 'access',
        expiresAt: new Date(now.getTime() + ACCESS_TTL_SECONDS * 1000),
        now,
      });
      return c.json(
        {
          access_token: access,
          expires_in: ACCESS_TTL_SECONDS - 1,
          scope: found.grant.scopes.join(' '),
          token_type: 'Bearer',
        },
        200,
        { 'cache-control': 'no-store' },
      );
    }
    return oauthError(400, 'unsupported_grant_type', 'Invalid grant_type.');
  });

  app.post(`${base}/revoke`, async (c) => {
    const form = new URLSearchParams(await c.req.text());
    const found = await findSandboxTokenByHash(deps.db.sql, hash(form.get('token') ?? c.req.query('token') ?? ''));
    if (!found) return oauthError(400, 'invalid_token', 'Token expired or revoked');
    await revokeSandboxGrant(deps.db.sql, found.grant.id, deps.clock.now());
    return c.body(null, 200);
  });

  /** The grant behind a valid access token, or the 401 Google would answer. */
  async function bearer(
    header: string | undefined,
  ): Promise<{ grant?: Awaited<ReturnType<typeof findSandboxTokenByHash>>; error?: Response }> {
    const match = /^Bearer (\S+)$/.exec(header ?? '');
    const found = match ? await findSandboxTokenByHash(deps.db.sql, hash(match[1])) : undefined;
    const live =
      found &&
      found.kind === 'access' &&
      !found.revoked_at &&
      (!found.expires_at || found.expires_at.getTime() > deps.clock.now().getTime());
    if (!live) {
      return {
        error: new Response(
          JSON.stringify({
            error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
          }),
          { status: 401, headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer' } },
        ),
      };
    }
    return { grant: found };
  }

  app.get(`${base}/v1/userinfo`, async (c) => {
    const { grant, error } = await bearer(c.req.header('authorization'));
    if (error || !grant) return error;
    if (!grant.grant.scopes.includes('email')) return c.json({ sub: grant.grant.id }, 200);
    return c.json({ sub: grant.grant.id, email: grant.grant.account_email, email_verified: true }, 200);
  });

  app.post(`${base}/gmail/v1/users/me/messages/send`, async (c) => {
    const { grant, error } = await bearer(c.req.header('authorization'));
    if (error || !grant) return error;
    if (!grant.grant.scopes.includes(GMAIL_SEND_SCOPE)) {
      return c.json(
        {
          error: { code: 403, message: 'Request had insufficient authentication scopes.', status: 'PERMISSION_DENIED' },
        },
        403,
      );
    }
    let raw: unknown;
    try {
      raw = (await c.req.json<{ raw?: unknown }>()).raw;
    } catch {
      raw = undefined;
    }
    if (typeof raw !== 'string' || !/^[A-Za-z0-9_-]+={0,2}$/.test(raw)) {
      return c.json(
        {
          error: {
            code: 400,
            message: "Invalid value for ByteString: 'raw' must be base64url.",
            status: 'INVALID_ARGUMENT',
          },
        },
        400,
      );
    }
    const mime = Buffer.from(raw, 'base64url');
    const parsed = await simpleParser(mime);
    const to = parsed.to ? (Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(', ') : parsed.to.text) : null;
    // Like a payment provider's test card numbers: an address at a reserved `.invalid` domain (RFC 2606),
    // which can never exist, is refused as Gmail refuses a bad recipient, so bounces can be tried here.
    const addresses = parsed.to
      ? (Array.isArray(parsed.to) ? parsed.to : [parsed.to]).flatMap((a) => a.value.map((v) => v.address ?? ''))
      : [];
    if (!to || addresses.some((a) => !a || /\.invalid$/i.test(a)))
      return c.json({ error: { code: 400, message: 'Invalid To header', status: 'INVALID_ARGUMENT' } }, 400);
    const message = await insertSandboxMessage(deps.db.sql, grant.grant.workspace_id, deps.ids, {
      grantId: grant.grant.id,
      raw: mime.toString('utf8'),
      // Gmail sends as the authenticated account, whatever From says.
      account_email: grant.grant.account_email,
      message_id_header: parsed.messageId ?? null,
      from_header: parsed.from?.text ?? grant.grant.account_email,
      to_header: to,
      subject: parsed.subject ?? null,
      text_body: parsed.text ?? null,
      html_body: typeof parsed.html === 'string' ? parsed.html : null,
      now: deps.clock.now(),
    });
    return c.json({ id: message.id, threadId: message.id, labelIds: ['SENT'] }, 200);
  });
}

/** The sandbox provider's routes, for the 405/404 answers of paths outside the contract. */
export const sandboxPaths = [
  { path: `${SANDBOX_PREFIX}/o/oauth2/v2/auth`, methods: ['GET', 'POST'] },
  { path: `${SANDBOX_PREFIX}/token`, methods: ['POST'] },
  { path: `${SANDBOX_PREFIX}/revoke`, methods: ['POST'] },
  { path: `${SANDBOX_PREFIX}/v1/userinfo`, methods: ['GET'] },
  { path: `${SANDBOX_PREFIX}/gmail/v1/users/me/messages/send`, methods: ['POST'] },
];
