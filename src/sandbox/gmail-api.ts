// Sandbox mode's Google, part two: the resources a bearer token from the sandbox OAuth server
// (google-provider.ts) opens, userinfo and Gmail's send, answered as Google answers them. Messages
// sent are parsed and kept in the sandbox mailbox, never delivered; gmail-read-api.ts reads the mailbox.
import type { Hono } from 'hono';
import type { ParsedMail } from 'mailparser';
import { insertSandboxMessage, type SandboxMailbox } from '../handlers/connectors/sandbox-data.ts';
import { listSandboxThread } from '../handlers/connectors/sandbox-mailbox-data.ts';
import type { Deps } from '../deps.ts';
import { GMAIL_SEND_SCOPE, SANDBOX_PREFIX } from '../handlers/connectors/google/google-endpoints.ts';
import { sandboxBearer } from './gmail-bearer.ts';
import { gmailReadRoutes } from './gmail-read-api.ts';
import { insufficientScope, invalidArgument } from './gmail-wire.ts';

export function gmailApiRoutes(app: Hono<any>, deps: Deps): void {
  const base = SANDBOX_PREFIX;

  app.get(`${base}/v1/userinfo`, async (c) => {
    const { grant, error } = await sandboxBearer(deps, c.req.header('authorization'));
    if (error) return error;
    if (!grant.scopes.includes('email')) return c.json({ sub: grant.id }, 200);
    return c.json({ sub: grant.id, email: grant.account_email, email_verified: true }, 200);
  });

  app.post(`${base}/gmail/v1/users/me/messages/send`, async (c) => {
    const { grant, error } = await sandboxBearer(deps, c.req.header('authorization'));
    if (error) return error;
    if (!grant.scopes.includes(GMAIL_SEND_SCOPE)) return insufficientScope();
    let body: { raw?: unknown; threadId?: unknown } = {};
    try {
      body = await c.req.json<{ raw?: unknown; threadId?: unknown }>();
    } catch {
      body = {};
    }
    const { raw } = body;
    if (typeof raw !== 'string' || !/^[A-Za-z0-9_-]+={0,2}$/.test(raw))
      return invalidArgument("Invalid value for ByteString: 'raw' must be base64url.");
    const mime = Buffer.from(raw, 'base64url');
    // Loaded at the first send: mailparser is a tenth of a second of CPU that a start need not spend.
    const { simpleParser } = await import('mailparser');
    const parsed = await simpleParser(mime);
    const to = parsed.to ? (Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(', ') : parsed.to.text) : null;
    // Like a payment provider's test card numbers: an address at a reserved `.invalid` domain (RFC 2606),
    // which can never exist, is refused as Gmail refuses a bad recipient, so bounces can be tried here.
    const addresses = parsed.to
      ? (Array.isArray(parsed.to) ? parsed.to : [parsed.to]).flatMap((a) => a.value.map((v) => v.address ?? ''))
      : [];
    if (!to || addresses.some((a) => !a || /\.invalid$/i.test(a))) return invalidArgument('Invalid To header');
    const mailbox = { workspaceId: grant.workspace_id, accountEmail: grant.account_email };
    const threadId =
      typeof body.threadId === 'string' && body.threadId
        ? await joinableThread(deps, mailbox, body.threadId, parsed)
        : undefined;
    const message = await insertSandboxMessage(deps.db.sql, grant.workspace_id, deps.ids, {
      grantId: grant.id,
      raw: mime.toString('utf8'),
      // Gmail sends as the authenticated account, whatever From says.
      account_email: grant.account_email,
      message_id_header: parsed.messageId ?? null,
      from_header: parsed.from?.text ?? grant.account_email,
      to_header: to,
      subject: parsed.subject ?? null,
      text_body: parsed.text ?? null,
      html_body: typeof parsed.html === 'string' ? parsed.html : null,
      now: deps.clock.now(),
      threadId,
    });
    return c.json({ id: message.id, threadId: message.thread_id, labelIds: ['SENT'] }, 200);
  });

  gmailReadRoutes(app, deps);
}

/** A subject without its reply and forward prefixes, as threads compare them. */
export const baseSubject = (subject: string | null | undefined) =>
  (subject ?? '')
    .replace(/^(?:\s*(?:re|fwd?|aw|sv|antw|wg|tr|rif|res|enc)\s*(?:\[\d+\])?\s*:\s*)+/i, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/**
 * The thread a sent message joins. Gmail puts a message into the `threadId` it is sent with only when its
 * In-Reply-To or References names a message of that thread and its Subject matches the thread's (reply and
 * forward prefixes aside); otherwise, or when the mailbox has no such thread, the message starts its own
 * thread and the send still succeeds. The sandbox applies the same rule.
 */
async function joinableThread(
  deps: Deps,
  mailbox: SandboxMailbox,
  threadId: string,
  parsed: ParsedMail,
): Promise<string | undefined> {
  const thread = await listSandboxThread(deps.db.sql, mailbox, threadId);
  if (!thread.length) return undefined;
  const known = new Set(thread.map((m) => m.message_id_header).filter(Boolean));
  const refs = [parsed.inReplyTo, ...[parsed.references ?? []].flat()].filter((r): r is string => !!r);
  if (!refs.some((r) => known.has(r))) return undefined;
  return baseSubject(parsed.subject) === baseSubject(thread[0].subject) ? threadId : undefined;
}
