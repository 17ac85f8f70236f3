// Sandbox mode's Google, part two: the resources a bearer token from the sandbox OAuth server
// (google-provider.ts) opens, userinfo and Gmail's send, answered as Google answers them. Messages
// sent are parsed and kept in the sandbox mailbox, never delivered.
import { createHash } from 'node:crypto';
import type { Hono } from 'hono';
import { simpleParser } from 'mailparser';
import { findSandboxTokenByHash, insertSandboxMessage } from '../handlers/connectors/sandbox-data.ts';
import type { Deps } from '../deps.ts';
import { GMAIL_SEND_SCOPE, SANDBOX_PREFIX } from '../handlers/connectors/google/google-endpoints.ts';

const hash = (value: string) => createHash('sha256').update(value).digest('hex');

export function gmailApiRoutes(app: Hono<any>, deps: Deps): void {
  const base = SANDBOX_PREFIX;

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
