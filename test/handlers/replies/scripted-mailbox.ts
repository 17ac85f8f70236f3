// A mailbox reader over messages the test delivers, Gmail-shaped (history ids that grow, pages, an
// expirable history), for exercising the sync before and beside the fake Google's Gmail routes. It
// counts fetches so a test can prove each message is fetched and recorded once.
import type {
  FullMessage,
  MailboxReader,
  MessageMetadata,
  ReadOutcome,
} from '../../../src/handlers/connectors/providers/mailbox.ts';

export interface Delivered extends FullMessage {
  historyId: number;
}

export class ScriptedMailbox implements MailboxReader {
  messages: Delivered[] = [];
  historyId = 1000;
  /** History older than this answers history_expired, as Gmail's 404. */
  oldestHistoryId = 0;
  pageSize = 2;
  fetches = new Map<string, number>();
  /** Called before each message fetch: a test aborts a run midway here. */
  onFetch: (id: string) => void = () => undefined;
  scopeRefused = false;

  deliver(m: {
    id: string;
    threadId?: string;
    headers: Record<string, string | string[]>;
    labels?: string[];
    text?: string | null;
    deliveryStatus?: string | null;
    receivedAt?: Date;
  }): Delivered {
    const headers = Object.fromEntries(
      Object.entries(m.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v : [v]]),
    );
    const delivered: Delivered = {
      id: m.id,
      threadId: m.threadId ?? `t-${m.id}`,
      labelIds: m.labels ?? ['INBOX'],
      receivedAt: m.receivedAt ?? new Date(),
      headers,
      text: m.text ?? null,
      deliveryStatus: m.deliveryStatus ?? null,
      historyId: ++this.historyId,
    };
    this.messages.push(delivered);
    return delivered;
  }

  private refused<T>(): ReadOutcome<T> | null {
    return this.scopeRefused
      ? { kind: 'insufficient_scope', reason: 'Request had insufficient authentication scopes.' }
      : null;
  }

  async profile(): Promise<ReadOutcome<{ historyId: string }>> {
    return this.refused() ?? { kind: 'ok', value: { historyId: String(this.historyId) } };
  }

  async history(_d: unknown, _c: unknown, start: string, pageToken?: string) {
    const refused = this.refused<{ added: never[]; historyId: string }>();
    if (refused) return refused;
    if (Number(start) < this.oldestHistoryId) return { kind: 'history_expired' as const };
    const after = this.messages.filter((m) => m.historyId > Number(start));
    const from = Number(pageToken ?? 0);
    const page = after.slice(from, from + this.pageSize);
    const next = from + this.pageSize < after.length ? String(from + this.pageSize) : undefined;
    const added = page.map((m) => ({ id: m.id, threadId: m.threadId, labelIds: m.labelIds }));
    return { kind: 'ok' as const, value: { added, historyId: String(this.historyId), nextPageToken: next } };
  }

  async recent(_d: unknown, _c: unknown, _days: number, pageToken?: string) {
    const refused = this.refused<{ messages: never[] }>();
    if (refused) return refused;
    const from = Number(pageToken ?? 0);
    const page = this.messages.slice(from, from + this.pageSize);
    const next = from + this.pageSize < this.messages.length ? String(from + this.pageSize) : undefined;
    const messages = page.map((m) => ({ id: m.id, threadId: m.threadId, labelIds: m.labelIds }));
    return { kind: 'ok' as const, value: { messages, nextPageToken: next } };
  }

  private find(id: string): Delivered | undefined {
    this.onFetch(id);
    this.fetches.set(id, (this.fetches.get(id) ?? 0) + 1);
    return this.messages.find((m) => m.id === id);
  }

  async metadata(_d: unknown, _c: unknown, id: string): Promise<ReadOutcome<MessageMetadata>> {
    const refused = this.refused<MessageMetadata>();
    if (refused) return refused;
    const m = this.find(id);
    if (!m) return { kind: 'not_found' };
    const { text: _t, deliveryStatus: _s, historyId: _h, ...meta } = m;
    return { kind: 'ok', value: meta };
  }

  async full(_d: unknown, _c: unknown, id: string): Promise<ReadOutcome<FullMessage>> {
    const refused = this.refused<FullMessage>();
    if (refused) return refused;
    const m = this.find(id);
    return m ? { kind: 'ok', value: m } : { kind: 'not_found' };
  }

  async thread(_d: unknown, _c: unknown, threadId: string) {
    const messages = this.messages.filter((m) => m.threadId === threadId);
    return messages.length
      ? { kind: 'ok' as const, value: { id: threadId, messages } }
      : { kind: 'not_found' as const };
  }
}
