// Gmail's users.messages.send, as the connector's mailbox calls it (see google-client.ts for the calls' rules).
import type { GmailEndpoints } from '../../../outbound/provider-endpoints.ts';
import { call, isObject, json, ProviderError } from './google-client.ts';

/**
 * Gmail API users.messages.send with a base64url RFC 5322 message, into `threadId` when given (Gmail also wants
 * In-Reply-To/References and a matching subject, else it starts a new thread); returns Gmail's message id.
 */
export async function sendRawMessage(
  endpoints: GmailEndpoints,
  accessToken: string,
  raw: string,
  threadId?: string,
): Promise<{ id: string; threadId?: string }> {
  const what = 'Gmail send';
  const response = await call(
    `${endpoints.gmailApiBase}/gmail/v1/users/me/messages/send`,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${accessToken}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify(threadId ? { raw, threadId } : { raw }),
    },
    what,
  );
  if (!response.ok) {
    const detail = await sendErrorDetail(response);
    if (response.status === 401)
      throw new ProviderError('unauthorized', `${what}: the access token was refused`, 401, detail);
    if (response.status === 403)
      throw new ProviderError(
        'forbidden',
        `${what}: the account does not allow sending with this grant${detail.providerMessage ? ` (${detail.providerMessage})` : ''}`,
        403,
        detail,
      );
    const kind = response.status >= 500 || response.status === 429 ? 'unavailable' : 'invalid_request';
    throw new ProviderError(
      kind,
      `${what}: the provider answered ${response.status}${detail.providerMessage ? ` (${detail.providerMessage})` : ''}`,
      response.status,
      detail,
    );
  }
  const body = await json(response, what);
  if (typeof body.id !== 'string') throw new ProviderError('bad_response', `${what}: no message id in the answer`);
  return { id: body.id, threadId: typeof body.threadId === 'string' ? body.threadId : undefined };
}

/** Google's error message (`{error: {message}}`) and Retry-After, from a refused send. */
async function sendErrorDetail(response: Response): Promise<{ providerMessage?: string; retryAfterSeconds?: number }> {
  const body: unknown = await response.json().catch(() => ({}));
  const error: Record<string, unknown> = isObject(body) && isObject(body.error) ? body.error : {};
  const retryAfter = Number(response.headers.get('retry-after'));
  return {
    providerMessage: typeof error.message === 'string' ? error.message.slice(0, 300) : undefined,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  };
}
