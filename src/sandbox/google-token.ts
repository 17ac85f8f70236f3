// Sandbox mode's Google OAuth token endpoint and revocation: codes from the consent page
// (google-provider.ts) are exchanged once, with the client secret and the PKCE verifier, for access
// and refresh tokens; a replayed code revokes what it issued, as Google does.
import { createHash, randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import {
  claimSandboxCodeByHash,
  findSandboxTokenByHash,
  insertSandboxToken,
  revokeSandboxGrant,
} from '../handlers/connectors/sandbox-data.ts';
import type { Deps } from '../deps.ts';
import {
  SANDBOX_CLIENT_ID,
  SANDBOX_PREFIX,
  sandboxClientSecret,
} from '../handlers/connectors/google/google-endpoints.ts';
import { constantTimeEqual } from './provider-responses.ts';

const ACCESS_TTL_SECONDS = 3600;
const hash = (value: string) => createHash('sha256').update(value).digest('hex');
const token = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

function oauthError(status: number, error: string, description: string): Response {
  return new Response(JSON.stringify({ error, error_description: description }), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

export function googleTokenRoutes(app: Hono<any>, deps: Deps): void {
  const base = SANDBOX_PREFIX;

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
}
