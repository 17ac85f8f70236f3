// Cross-instance cache invalidation over PostgreSQL LISTEN/NOTIFY. Handlers that revoke a key or
// remove (or re-role) a member call `invalidateApiKey` / `invalidateMembership` with the same
// `sql` (or transaction) that made the change; PostgreSQL delivers the notification to every
// listening instance when that transaction commits, and not at all if it rolls back.
import { randomUUID } from 'node:crypto';
import type { Sql, TransactionSql } from 'postgres';
import type { InvalidationTarget } from './principal-cache.ts';

export const authInvalidateChannel = 'auth_invalidate';

export interface Invalidation {
  target: InvalidationTarget;
  /** Unique per call, so the sender can wait for exactly this notification to come back. */
  nonce: string;
}

/** Control messages between instances on the same channel; see invalidation-listener.ts. */
export type ControlMessage =
  | { kind: 'ping'; instance: string; seq: number; heartbeatMs: number }
  | { kind: 'ack'; instance: string; nonce: string }
  | { kind: 'bye'; instance: string };

export type ChannelMessage = ControlMessage | { kind: 'invalidation'; invalidation: Invalidation };

type Queryable = Sql | TransactionSql;

export function encodeInvalidation(invalidation: Invalidation): string {
  return JSON.stringify({ n: invalidation.nonce, ...invalidation.target });
}

export function encodeControl(message: ControlMessage): string {
  return JSON.stringify({ ...message, type: message.kind });
}

const isString = (value: unknown): value is string => typeof value === 'string';

function decodeControl(data: Record<string, unknown>): ControlMessage | undefined {
  const { type, instance } = data;
  if (!isString(instance)) return undefined;
  if (type === 'ping' && typeof data.seq === 'number' && typeof data.heartbeatMs === 'number') {
    return { kind: 'ping', instance, seq: data.seq, heartbeatMs: data.heartbeatMs };
  }
  if (type === 'ack' && isString(data.nonce)) return { kind: 'ack', instance, nonce: data.nonce };
  if (type === 'bye') return { kind: 'bye', instance };
  return undefined;
}

function decodeTarget(data: Record<string, unknown>): InvalidationTarget {
  if (data.type === 'api_key' && isString(data.keyId)) return { type: 'api_key', keyId: data.keyId };
  if (data.type === 'membership' && isString(data.workspaceId) && isString(data.userId)) {
    return { type: 'membership', workspaceId: data.workspaceId, userId: data.userId };
  }
  return { type: 'all' };
}

/** Parses a channel payload; anything unexpected is treated as "forget everything". */
export function decodeMessage(payload: string): ChannelMessage {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return { kind: 'invalidation', invalidation: { nonce: '', target: { type: 'all' } } };
  }
  const control = decodeControl(data);
  if (control) return control;
  return { kind: 'invalidation', invalidation: { nonce: isString(data.n) ? data.n : '', target: decodeTarget(data) } };
}

async function send(sql: Queryable, target: InvalidationTarget): Promise<Invalidation> {
  const invalidation = { target, nonce: randomUUID() };
  await (sql as Sql)`select pg_notify(${authInvalidateChannel}, ${encodeInvalidation(invalidation)})`;
  return invalidation;
}

/**
 * Announces that an API key was revoked. Call inside the revoking transaction (delivery happens
 * at commit) or after it; after the commit, pass the result to `authenticator.settle()`, which
 * evicts in this process at once and resolves when every live instance has acknowledged it.
 */
export function invalidateApiKey(sql: Queryable, keyId: string): Promise<Invalidation> {
  return send(sql, { type: 'api_key', keyId });
}

/** Announces that a membership was removed or its role changed; same contract as above. */
export function invalidateMembership(sql: Queryable, workspaceId: string, userId: string): Promise<Invalidation> {
  return send(sql, { type: 'membership', workspaceId, userId });
}
