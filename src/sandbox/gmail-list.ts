// users.messages.list for the sandbox mailbox: newest first, by labelIds and a small part of Gmail's
// search language in `q` (newer_than:, older_than:, in:, label:, is:unread, and their negations), which is
// what a sync's bounded full sync asks. Other search terms are ignored, so a search finds more, never less.
// As at Google, `q` is refused under a metadata-only grant.
import type { Context } from 'hono';
import type { Deps } from '../deps.ts';
import type { SandboxGrantRow, SandboxMailbox } from '../handlers/connectors/sandbox-data.ts';
import { listSandboxMailbox } from '../handlers/connectors/sandbox-mailbox-data.ts';
import { googleError, invalidArgument, maxResults, metadataOnly, pageToken } from './gmail-wire.ts';

const UNIT_MS: Record<string, number> = { h: 3_600_000, d: 86_400_000, m: 30 * 86_400_000, y: 365 * 86_400_000 };

export interface Search {
  labelIds: string[];
  excludeLabelIds: string[];
  newerThan?: Date;
  olderThan?: Date;
}

/** The terms of `q` the sandbox understands, relative to `now`. */
export function parseSearch(q: string, now: Date): Search {
  const search: Search = { labelIds: [], excludeLabelIds: [] };
  for (const term of q.trim().split(/\s+/).filter(Boolean)) {
    const negated = term.startsWith('-');
    const [op, value = ''] = term.replace(/^-/, '').toLowerCase().split(/:(.*)/s);
    const age = /^(\d{1,6})([hdmy])$/.exec(value);
    if ((op === 'newer_than' || op === 'older_than') && age && !negated) {
      const at = new Date(now.getTime() - Number(age[1]) * UNIT_MS[age[2]]);
      if (op === 'newer_than') search.newerThan = at;
      else search.olderThan = at;
    } else if ((op === 'in' || op === 'label' || op === 'is') && value) {
      const label = value === 'unread' && op === 'is' ? 'UNREAD' : op === 'is' ? '' : value.toUpperCase();
      if (label) (negated ? search.excludeLabelIds : search.labelIds).push(label);
    }
  }
  return search;
}

export async function listMessages(
  deps: Deps,
  c: Context,
  reader: { grant: SandboxGrantRow; mailbox: SandboxMailbox },
): Promise<Response> {
  const q = c.req.query('q');
  if (q !== undefined && metadataOnly(reader.grant.scopes))
    return googleError(403, "Metadata scope does not support 'q' parameter", 'forbidden');
  const limit = maxResults(c.req.query('maxResults'));
  if (!limit) return invalidArgument('Invalid value for maxResults');
  const token = c.req.query('pageToken');
  const below = token ? pageToken.read(token) : undefined;
  if (token && !below) return invalidArgument('Invalid pageToken');
  const search = parseSearch(q ?? '', deps.clock.now());
  const labelIds = [...search.labelIds, ...(c.req.queries('labelIds') ?? []).map((l) => l.toUpperCase())];
  const { rows, total } = await listSandboxMailbox(deps.db.sql, reader.mailbox, {
    limit: limit + 1,
    belowHistoryId: below,
    labelIds,
    excludeLabelIds: search.excludeLabelIds,
    newerThan: search.newerThan,
    olderThan: search.olderThan,
  });
  const messages = rows.slice(0, limit).map((m) => ({ id: m.id, threadId: m.thread_id }));
  const last = rows[limit - 1];
  return c.json({
    ...(messages.length ? { messages } : {}),
    ...(rows.length > limit && last ? { nextPageToken: pageToken.make(last.history_id) } : {}),
    resultSizeEstimate: total,
  });
}
