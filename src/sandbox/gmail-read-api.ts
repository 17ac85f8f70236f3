// Sandbox mode's Gmail, read side: users.getProfile, users.history.list, users.messages.list and get,
// users.threads.get, on Google's paths and in Google's shapes, so the mailbox sync that reads Gmail reads
// the sandbox mailbox unchanged. A grant reads its account's mailbox in its workspace; gmail.metadata
// opens headers, labels and history, gmail.readonly also bodies. History is kept 30 days, as the sync's
// full-sync window assumes: a startHistoryId with forgotten records after it is answered 404, as Gmail does.
import type { Context, Hono } from 'hono';
import type { Deps } from '../deps.ts';
import { SANDBOX_PREFIX } from '../handlers/connectors/google/google-endpoints.ts';
import type { SandboxGrantRow, SandboxMailbox } from '../handlers/connectors/sandbox-data.ts';
import {
  findSandboxMailMessage,
  listSandboxThread,
  readSandboxHistory,
  sandboxMailboxProfile,
} from '../handlers/connectors/sandbox-mailbox-data.ts';
import { sandboxBearer } from './gmail-bearer.ts';
import { listMessages } from './gmail-list.ts';
import {
  canRead,
  googleError,
  insufficientScope,
  invalidArgument,
  maxResults,
  messageResource,
  metadataOnly,
  notFound,
  pageToken,
  parseFormat,
} from './gmail-wire.ts';

const HISTORY_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/** The reader's grant and mailbox, or Google's refusal (bad token, no read scope, another user's mailbox). */
export async function readerOf(
  deps: Deps,
  c: Context,
): Promise<{ grant: SandboxGrantRow; mailbox: SandboxMailbox; error?: undefined } | { error: Response }> {
  const { grant, error } = await sandboxBearer(deps, c.req.header('authorization'));
  if (error) return { error };
  const user = c.req.param('userId') ?? 'me';
  if (user !== 'me' && user.toLowerCase() !== grant.account_email.toLowerCase())
    return { error: googleError(403, `Delegation denied for ${grant.account_email}`, 'forbidden') };
  if (!canRead(grant.scopes)) return { error: insufficientScope() };
  return { grant, mailbox: { workspaceId: grant.workspace_id, accountEmail: grant.account_email } };
}

export function gmailReadRoutes(app: Hono<any>, deps: Deps): void {
  const users = `${SANDBOX_PREFIX}/gmail/v1/users/:userId`;

  app.get(`${users}/profile`, async (c) => {
    const reader = await readerOf(deps, c);
    if (reader.error) return reader.error;
    const profile = await sandboxMailboxProfile(deps.db.sql, reader.mailbox);
    return c.json({
      emailAddress: reader.grant.account_email,
      messagesTotal: profile.messages,
      threadsTotal: profile.threads,
      historyId: profile.historyId,
    });
  });

  app.get(`${users}/history`, async (c) => {
    const reader = await readerOf(deps, c);
    if (reader.error) return reader.error;
    const start = c.req.query('startHistoryId');
    if (!start) return invalidArgument('Missing required parameter: startHistoryId');
    if (!/^\d{1,19}$/.test(start))
      return invalidArgument(`Invalid value at 'start_history_id' (TYPE_UINT64), "${start.slice(0, 40)}"`);
    const limit = maxResults(c.req.query('maxResults'));
    if (!limit) return invalidArgument('Invalid value for maxResults');
    const token = c.req.query('pageToken');
    const after = token ? pageToken.read(token) : start;
    if (!after) return invalidArgument('Invalid pageToken');
    // Only messageAdded records exist in the sandbox: asking for other types alone finds none.
    const types = c.req.queries('historyTypes') ?? [];
    const page = await readSandboxHistory(deps.db.sql, reader.mailbox, {
      start,
      after,
      limit: types.length && !types.includes('messageAdded') ? 0 : limit + 1,
      keptSince: new Date(deps.clock.now().getTime() - HISTORY_KEPT_MS),
      labelId: c.req.query('labelId'),
    });
    if (page.expired) return notFound();
    const records = page.added.slice(0, limit).map((m) => ({
      id: m.history_id,
      messages: [{ id: m.id, threadId: m.thread_id }],
      messagesAdded: [{ message: { id: m.id, threadId: m.thread_id, labelIds: m.labels } }],
    }));
    const more = page.added.length > limit;
    return c.json({
      ...(records.length ? { history: records } : {}),
      ...(more ? { nextPageToken: pageToken.make(records[records.length - 1].id) } : {}),
      historyId: page.historyId,
    });
  });

  app.get(`${users}/messages`, async (c) => {
    const reader = await readerOf(deps, c);
    if (reader.error) return reader.error;
    return listMessages(deps, c, reader);
  });

  app.get(`${users}/messages/:id`, async (c) => {
    const reader = await readerOf(deps, c);
    if (reader.error) return reader.error;
    const format = readFormat(c, reader.grant);
    if (format instanceof Response) return format;
    const row = await findSandboxMailMessage(deps.db.sql, reader.mailbox, c.req.param('id'));
    if (!row) return notFound();
    return c.json(messageResource(row, format, resourceOptions(c, reader.grant)));
  });

  app.get(`${users}/threads/:id`, async (c) => {
    const reader = await readerOf(deps, c);
    if (reader.error) return reader.error;
    const format = readFormat(c, reader.grant);
    if (format instanceof Response) return format;
    const thread = await listSandboxThread(deps.db.sql, reader.mailbox, c.req.param('id'));
    if (!thread.length) return notFound();
    const options = resourceOptions(c, reader.grant);
    return c.json({
      id: c.req.param('id'),
      historyId: thread[thread.length - 1].history_id,
      messages: thread.map((m) => messageResource(m, format, options)),
    });
  });
}

/** The `format` asked for, or Google's refusal: unknown, or full/raw under a metadata-only grant. */
function readFormat(c: Context, grant: SandboxGrantRow) {
  const format = parseFormat(c.req.query('format'));
  if (!format) return invalidArgument(`Invalid value for format: ${String(c.req.query('format')).slice(0, 40)}`);
  if ((format === 'full' || format === 'raw') && metadataOnly(grant.scopes))
    return googleError(403, `Metadata scope doesn't allow format ${format.toUpperCase()}`, 'forbidden');
  return format;
}

const resourceOptions = (c: Context, grant: SandboxGrantRow) => ({
  metadataHeaders: c.req.queries('metadataHeaders') ?? [],
  withSnippet: !metadataOnly(grant.scopes),
});
