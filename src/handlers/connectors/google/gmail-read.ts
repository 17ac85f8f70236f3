// Gmail's read calls as the connector's mailbox makes them (users.getProfile, users.history.list,
// users.messages.list/get, users.threads.get), each one request with an access token; see google-client.ts
// for the calls' rules. A refusal is a ProviderError whose kind and detail (Google's reason) say what it was;
// gmail-mailbox.ts turns it into a ReadOutcome.
import type { GmailEndpoints } from '../../../outbound/provider-endpoints.ts';
import type { MessageMetadata, MessageRef } from '../providers/mailbox.ts';
import { call, isObject, json, ProviderError } from './google-client.ts';
import { fullMessage, messageMetadata, messageRef } from './gmail-message.ts';

/** The headers a format=metadata read asks for: threading, classification (auto-replies, bounces) and display. */
export const METADATA_HEADERS = [
  'From',
  'To',
  'Subject',
  'Date',
  'Message-ID',
  'In-Reply-To',
  'References',
  'Auto-Submitted',
  'X-Autoreply',
  'X-Autorespond',
  'Precedence',
  'X-Failed-Recipients',
  'Content-Type',
  'Return-Path',
];

const PAGE_SIZE = 100;

/** Google's reasons for a 403 that a grant with more scopes would not have had. */
const SCOPE_REASONS = new Set(['insufficientPermissions', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT']);

/** Whether a refusal says the grant lacks a scope (including gmail.metadata's own limits on `q` and format=full). */
export function isScopeRefusal(error: ProviderError): boolean {
  if (error.kind !== 'forbidden') return false;
  const { providerReason, providerMessage } = error.detail;
  return (
    (providerReason !== undefined && SCOPE_REASONS.has(providerReason)) ||
    /insufficient (authentication )?scopes|metadata scope/i.test(providerMessage ?? '')
  );
}

async function readError(response: Response, what: string): Promise<never> {
  const body: unknown = await response.json().catch(() => ({}));
  const error: Record<string, unknown> = isObject(body) && isObject(body.error) ? body.error : {};
  const first = Array.isArray(error.errors) && isObject(error.errors[0]) ? error.errors[0] : {};
  const retryAfter = Number(response.headers.get('retry-after'));
  const detail = {
    providerMessage: typeof error.message === 'string' ? error.message.slice(0, 300) : undefined,
    providerReason: typeof first.reason === 'string' ? first.reason.slice(0, 100) : undefined,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  };
  const { status } = response;
  const said = `${what}: the provider answered ${status}${detail.providerMessage ? ` (${detail.providerMessage})` : ''}`;
  if (status === 401) throw new ProviderError('unauthorized', `${what}: the access token was refused`, 401, detail);
  if (status === 403) throw new ProviderError('forbidden', said, 403, detail);
  if (status === 404) throw new ProviderError('not_found', said, 404, detail);
  throw new ProviderError(status >= 500 || status === 429 ? 'unavailable' : 'invalid_request', said, status, detail);
}

async function get(
  endpoints: GmailEndpoints,
  accessToken: string,
  path: string,
  params: Array<[string, string | undefined]>,
  what: string,
): Promise<Record<string, unknown>> {
  const url = new URL(`${endpoints.gmailApiBase}/gmail/v1/users/me/${path}`);
  for (const [name, value] of params) if (value !== undefined) url.searchParams.append(name, value);
  const response = await call(
    url.href,
    { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } },
    what,
  );
  if (!response.ok) return readError(response, what);
  return json(response, what);
}

const pageToken = (body: Record<string, unknown>) =>
  typeof body.nextPageToken === 'string' && body.nextPageToken ? body.nextPageToken : undefined;
const historyIdOf = (value: unknown) =>
  typeof value === 'string' && /^\d+$/.test(value) ? value : typeof value === 'number' ? String(value) : undefined;

export async function getProfile(endpoints: GmailEndpoints, accessToken: string): Promise<{ historyId: string }> {
  const what = 'Gmail profile';
  const body = await get(endpoints, accessToken, 'profile', [], what);
  const historyId = historyIdOf(body.historyId);
  if (!historyId) throw new ProviderError('bad_response', `${what}: no historyId in the answer`);
  return { historyId };
}

/** users.history.list, messageAdded only; one page. A message added and changed again appears once. */
export async function listHistory(
  endpoints: GmailEndpoints,
  accessToken: string,
  startHistoryId: string,
  page?: string,
): Promise<{ added: MessageRef[]; historyId: string; nextPageToken?: string }> {
  const what = 'Gmail history';
  const body = await get(
    endpoints,
    accessToken,
    'history',
    [
      ['startHistoryId', startHistoryId],
      ['historyTypes', 'messageAdded'],
      ['maxResults', String(PAGE_SIZE)],
      ['pageToken', page],
    ],
    what,
  );
  const historyId = historyIdOf(body.historyId);
  if (!historyId) throw new ProviderError('bad_response', `${what}: no historyId in the answer`);
  const added = new Map<string, MessageRef>();
  for (const record of Array.isArray(body.history) ? body.history : [])
    for (const entry of isObject(record) && Array.isArray(record.messagesAdded) ? record.messagesAdded : []) {
      const ref = messageRef(isObject(entry) ? entry.message : undefined, what);
      added.set(ref.id, ref);
    }
  return { added: [...added.values()], historyId, nextPageToken: pageToken(body) };
}

/** users.messages.list, newest first; `q` only where the grant allows it (not with gmail.metadata). */
export async function listMessages(
  endpoints: GmailEndpoints,
  accessToken: string,
  options: { pageToken?: string; q?: string },
): Promise<{ messages: MessageRef[]; nextPageToken?: string }> {
  const what = 'Gmail message list';
  const body = await get(
    endpoints,
    accessToken,
    'messages',
    [
      ['maxResults', String(PAGE_SIZE)],
      ['pageToken', options.pageToken],
      ['q', options.q],
    ],
    what,
  );
  // Gmail leaves `messages` out of an empty page.
  const messages = (Array.isArray(body.messages) ? body.messages : []).map((m) => messageRef(m, what));
  return { messages, nextPageToken: pageToken(body) };
}

const metadataParams = (format: string): Array<[string, string]> => [
  ['format', format],
  ...(format === 'metadata' ? METADATA_HEADERS.map((h): [string, string] => ['metadataHeaders', h]) : []),
];

export async function getMessage(
  endpoints: GmailEndpoints,
  accessToken: string,
  id: string,
  format: 'minimal' | 'metadata',
): Promise<MessageMetadata> {
  const what = 'Gmail message';
  const body = await get(endpoints, accessToken, `messages/${encodeURIComponent(id)}`, metadataParams(format), what);
  return messageMetadata(body, what);
}

export async function getFullMessage(endpoints: GmailEndpoints, accessToken: string, id: string) {
  const what = 'Gmail message';
  const body = await get(endpoints, accessToken, `messages/${encodeURIComponent(id)}`, [['format', 'full']], what);
  return fullMessage(body, what);
}

export async function getThread(
  endpoints: GmailEndpoints,
  accessToken: string,
  id: string,
): Promise<{ id: string; messages: MessageMetadata[] }> {
  const what = 'Gmail thread';
  const body = await get(endpoints, accessToken, `threads/${encodeURIComponent(id)}`, metadataParams('metadata'), what);
  const messages = (Array.isArray(body.messages) ? body.messages : []).map((m) => messageMetadata(m, what));
  // Gmail lists a thread oldest first; sorting keeps that promise whatever the answer's order.
  messages.sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime());
  return { id: typeof body.id === 'string' ? body.id : id, messages };
}
