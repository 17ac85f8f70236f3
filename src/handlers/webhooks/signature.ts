// Standard Webhooks (https://www.standardwebhooks.com) signing: the secret is `whsec_` + base64 of
// random bytes; each delivery carries `webhook-id`, `webhook-timestamp` (Unix seconds) and
// `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body" keyed by the secret's bytes>`.
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export function newWebhookSecret(): string {
  return PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

function secretBytes(secret: string): Buffer {
  if (!secret.startsWith(PREFIX)) throw new Error('a webhook secret starts with whsec_');
  return Buffer.from(secret.slice(PREFIX.length), 'base64');
}

export function signWebhook(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretBytes(secret))
    .update(`${messageId}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/** The three headers of one delivery attempt (a fresh timestamp per attempt, the same id throughout). */
export function webhookHeaders(secret: string, messageId: string, now: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, messageId, timestamp, body),
  };
}
