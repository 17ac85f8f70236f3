// The fake Google's mailboxes, one per account: messages a test delivers and messages the service sends,
// in Gmail's threads, with a history (a monotonic historyId per message added) that a test can expire. It
// answers the Gmail read calls as strictly as Google does: scopes enforced (403 insufficientPermissions
// without gmail.metadata or gmail.readonly; gmail.metadata's limits — no `q`, no format=full or raw — on any
// token that carries it, as Google does even beside gmail.readonly), 404 NOT_FOUND for an expired history id
// or an unknown message, format=metadata with only the headers asked, and `messages` left out of an empty list.
import type { ServerResponse } from 'node:http';
import { buildPayload, headerList, type Header, type Payload } from './fake-google-mime.ts';

export const METADATA = 'https://www.googleapis.com/auth/gmail.metadata';
export const READONLY = 'https://www.googleapis.com/auth/gmail.readonly';

export interface InboxMessage {
  mailbox: string;
  id: string;
  threadId: string;
  labelIds: string[];
  internalDate: number;
  historyId: number;
  payload: Payload;
}

/** A message arriving in `to`'s mailbox. Without threadId, it joins the thread its In-Reply-To/References name. */
export interface Delivery {
  to: string;
  from: string;
  subject?: string;
  threadId?: string;
  /** More headers (In-Reply-To, Auto-Submitted, ...); Message-ID and Date are made when not given. */
  headers?: Record<string, string>;
  text?: string;
  html?: string;
  /** Makes the message a DSN (multipart/report) whose delivery-status part says this `Status:`. */
  deliveryStatus?: string;
  labels?: string[];
  internalDate?: Date;
  /** Gmail's payload exactly as given (a hostile or odd message); the other body fields are ignored. */
  payload?: unknown;
}

export interface CannedAnswer {
  status: number;
  /** JSON to send, or a string sent as it is (e.g. not JSON at all). */
  body: unknown;
  retryAfter?: number;
}

type Respond = (status: number, body: unknown, headers?: Record<string, string>) => void;

function responder(res: ServerResponse): Respond {
  return (status, body, headers = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

const notFound = { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } };
const forbidden = (message: string, reason: string) => ({
  error: { code: 403, message, errors: [{ message, domain: 'global', reason }], status: 'PERMISSION_DENIED' },
});
const insufficient = forbidden('Request had insufficient authentication scopes.', 'insufficientPermissions');
const normalSubject = (s: string) =>
  s
    .replace(/^\s*((re|fwd?|aw|sv)\s*:\s*)+/i, '')
    .trim()
    .toLowerCase();

export function createInbox() {
  const messages: InboxMessage[] = [];
  const canned: CannedAnswer[] = [];
  let counter = 0;
  let history = 10_000;
  let floor = 0;
  const nextId = () => `18f${(++counter).toString(16).padStart(13, '0')}`;
  const header = (m: InboxMessage, name: string) =>
    m.payload.headers.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;
  const threadOf = (mailbox: string, headers: Header[]) => {
    const refs = headers
      .filter((h) => /^(in-reply-to|references)$/i.test(h.name))
      .flatMap((h) => h.value.match(/<[^>]+>/g) ?? []);
    return messages.find((m) => m.mailbox === mailbox && refs.includes(header(m, 'Message-ID') ?? ''))?.threadId;
  };
  const add = (mailbox: string, threadId: string | undefined, labelIds: string[], payload: Payload, at: number) => {
    const id = nextId();
    const message = {
      mailbox,
      id,
      threadId: threadId ?? threadOf(mailbox, payload.headers) ?? id,
      labelIds,
      internalDate: at,
      historyId: ++history,
      payload,
    };
    messages.push(message);
    return message;
  };

  function deliver(d: Delivery) {
    const at = (d.internalDate ?? new Date()).getTime();
    const payload = d.payload !== undefined ? (d.payload as Payload) : buildPayload(d, at);
    const m = add(d.to, d.threadId, d.labels ?? ['INBOX', 'UNREAD'], payload, at);
    return { id: m.id, threadId: m.threadId, historyId: String(m.historyId) };
  }

  /** A message the account sent (users.messages.send): into `threadId` only as Gmail would put it there. */
  function recordSent(mailbox: string, headers: Header[], text: string, threadId?: string) {
    if (threadId !== undefined) {
      const thread = messages.filter((m) => m.mailbox === mailbox && m.threadId === threadId);
      if (!thread.length) return undefined;
      const subject = normalSubject(headers.find((h) => /^subject$/i.test(h.name))?.value ?? '');
      const threaded =
        headers.some((h) => /^(in-reply-to|references)$/i.test(h.name)) &&
        normalSubject(header(thread[0], 'Subject') ?? '') === subject;
      // Gmail starts a new thread, silently, for a message that does not say it answers the thread.
      if (!threaded) threadId = undefined;
    }
    const payload = buildPayload({ text }, Date.now(), headers);
    const m = add(mailbox, threadId ?? '', ['SENT'], payload, Date.now());
    if (!threadId) m.threadId = m.id;
    return { id: m.id, threadId: m.threadId };
  }

  function view(m: InboxMessage, format: string, asked: string[]) {
    const base = {
      id: m.id,
      threadId: m.threadId,
      labelIds: m.labelIds,
      snippet: '',
      historyId: String(m.historyId),
      internalDate: String(m.internalDate),
      sizeEstimate: 1000,
    };
    if (format === 'minimal') return base;
    if (format === 'metadata') {
      const wanted = asked.map((h) => h.toLowerCase());
      const headers = wanted.length
        ? m.payload.headers.filter((h) => wanted.includes(h.name.toLowerCase()))
        : m.payload.headers;
      return { ...base, payload: { partId: '', mimeType: m.payload.mimeType, filename: '', headers } };
    }
    return { ...base, payload: m.payload };
  }

  /** Answers GET /gmail/v1/users/me/...; `scopes` are the access token's. */
  function handle(url: URL, mailbox: string, scopes: string[], res: ServerResponse) {
    const respond = responder(res);
    const answer = canned.shift();
    if (answer)
      return respond(answer.status, answer.body, answer.retryAfter ? { 'retry-after': String(answer.retryAfter) } : {});
    if (!scopes.includes(METADATA) && !scopes.includes(READONLY)) return respond(403, insufficient);
    const metadataOnly = scopes.includes(METADATA);
    const p = url.searchParams;
    const path = url.pathname.slice('/gmail/v1/users/me/'.length).split('/');
    const mine = messages.filter((m) => m.mailbox === mailbox);
    const format = p.get('format') ?? 'full';
    if (path.length === 2 && metadataOnly && (format === 'full' || format === 'raw'))
      return respond(403, forbidden(`Metadata scope doesn't allow format ${format.toUpperCase()}`, 'forbidden'));
    if (!['minimal', 'metadata', 'full'].includes(format)) return respond(400, { error: { code: 400 } });
    if (path[0] === 'profile' && path.length === 1)
      return respond(200, {
        emailAddress: mailbox,
        messagesTotal: mine.length,
        threadsTotal: new Set(mine.map((m) => m.threadId)).size,
        historyId: String(history),
      });
    if (path[0] === 'history' && path.length === 1) {
      const start = p.get('startHistoryId') ?? '';
      if (!/^\d+$/.test(start)) return respond(400, { error: { code: 400, message: 'Invalid startHistoryId' } });
      if (Number(start) < floor) return respond(404, notFound);
      const types = p.getAll('historyTypes');
      const records = mine
        .filter((m) => m.historyId > Number(start) && (!types.length || types.includes('messageAdded')))
        .map((m) => ({
          id: String(m.historyId),
          messages: [{ id: m.id, threadId: m.threadId }],
          messagesAdded: [{ message: { id: m.id, threadId: m.threadId, labelIds: m.labelIds } }],
        }));
      return respond(200, page(records, 'history', p, { historyId: String(history) }));
    }
    if (path[0] === 'messages' && path.length === 1) {
      const q = p.get('q');
      if (q !== null && metadataOnly)
        return respond(403, forbidden("Metadata scope does not support 'q' parameter", 'forbidden'));
      const newer = q === null ? undefined : /^newer_than:(\d+)d$/.exec(q);
      if (q !== null && !newer) return respond(400, { error: { code: 400, message: `fake: unsupported q ${q}` } });
      const since = newer ? Date.now() - Number(newer[1]) * 86_400_000 : 0;
      const spamTrash = p.get('includeSpamTrash') === 'true';
      const listed = mine
        .filter((m) => m.internalDate >= since && (spamTrash || !m.labelIds.some((l) => l === 'SPAM' || l === 'TRASH')))
        .sort((a, b) => b.internalDate - a.internalDate || b.historyId - a.historyId)
        .map((m) => ({ id: m.id, threadId: m.threadId }));
      return respond(200, page(listed, 'messages', p, { resultSizeEstimate: listed.length }));
    }
    if (path[0] === 'messages' && path.length === 2) {
      const m = mine.find((x) => x.id === path[1]);
      return m ? respond(200, view(m, format, p.getAll('metadataHeaders'))) : respond(404, notFound);
    }
    if (path[0] === 'threads' && path.length === 2) {
      const thread = mine.filter((x) => x.threadId === path[1]).sort((a, b) => a.historyId - b.historyId);
      if (!thread.length) return respond(404, notFound);
      const asked = p.getAll('metadataHeaders');
      return respond(200, {
        id: path[1],
        historyId: String(thread.at(-1)?.historyId),
        messages: thread.map((m) => view(m, format, asked)),
      });
    }
    respond(404, notFound);
  }

  return {
    messages,
    deliver,
    recordSent,
    handle,
    historyId: () => String(history),
    expireHistoryBefore(id: string) {
      floor = Number(id);
    },
    answerNextReads(answers: CannedAnswer[]) {
      canned.push(...answers);
    },
    /** A delivered or sent message's headers as Gmail keeps them. */
    headers: (id: string) => headerList(messages.find((m) => m.id === id)?.payload),
  };
}

/** One page of `items` under `key` (left out when empty, as Gmail does), by maxResults and an offset pageToken. */
function page(items: unknown[], key: string, p: URLSearchParams, extra: Record<string, unknown>) {
  const size = Math.min(Number(p.get('maxResults') ?? 100) || 100, 500);
  const from = Number(p.get('pageToken') ?? 0) || 0;
  const slice = items.slice(from, from + size);
  return {
    ...(slice.length ? { [key]: slice } : {}),
    ...(from + size < items.length ? { nextPageToken: String(from + size) } : {}),
    ...extra,
  };
}
