// Keeps one LISTEN on the invalidation channel, knows whether it can be trusted, and lets the
// instance that sent an invalidation wait until every live instance has applied it.
//
// Health: postgres.js re-establishes a dropped LISTEN connection by itself but does not say when
// it dropped, and a half-open TCP connection can go unnoticed for minutes. So every `heartbeatMs`
// the instance NOTIFYs a numbered ping through its ordinary pool; if its previous ping has not
// come back by the next beat, the listener is unhealthy and the caller must not use its cache.
// Every change of health and every (re)LISTEN calls `onReset`, since notifications may have been
// missed meanwhile. A notification lost to a silent drop is thus noticed within two heartbeats.
//
// Acknowledgements: every instance answers each invalidation with an `ack`. Pings double as
// presence announcements, so an instance knows its live peers, and `waitFor` resolves once all
// of them (and itself) have acknowledged: a revoke that has settled is in force everywhere.
import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import type { Logger } from 'pino';
import type { InvalidationTarget } from './principal-cache.ts';
import { authInvalidateChannel, decodeMessage, encodeControl, type ControlMessage } from './invalidation.ts';

export interface InvalidationListener {
  healthy(): boolean;
  /** Resolves true once healthy, false after `timeoutMs` without it. */
  ready(timeoutMs: number): Promise<boolean>;
  /** Resolves true when every live instance has acknowledged `nonce`; false on timeout or when unhealthy. */
  waitFor(nonce: string, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface InvalidationListenerOptions {
  sql: Sql;
  heartbeatMs: number;
  onInvalidate(target: InvalidationTarget): void;
  onReset(): void;
  log?: Logger;
}

const rememberedNonces = 1000;
/** A peer is live while its last ping is younger than this many of its own heartbeats. */
const peerLivenessBeats = 3;

export function createInvalidationListener(options: InvalidationListenerOptions): InvalidationListener {
  const { sql, log, heartbeatMs } = options;
  const instance = randomUUID();
  const peers = new Map<string, { lastSeen: number; heartbeatMs: number }>();
  const acks = new Map<string, Set<string>>();
  const waiters = new Set<() => void>();
  const state = { healthy: false, starting: false, closed: false, sent: 0, echoed: 0 };
  let unlisten: (() => Promise<void>) | undefined;

  const wakeAll = () => waiters.forEach((wake) => wake());
  const send = (message: ControlMessage) =>
    sql`select pg_notify(${authInvalidateChannel}, ${encodeControl(message)})`.then(
      () => true,
      () => false,
    );

  function setHealthy(value: boolean): void {
    if (state.healthy === value) return;
    state.healthy = value;
    options.onReset();
    wakeAll();
    // Closing stops the cache too, but is no fault: the warning is kept for a listener that stopped hearing.
    if (state.closed) log?.info('auth invalidation listener closed');
    else
      log?.[value ? 'info' : 'warn'](
        `auth invalidation listener ${value ? 'healthy' : 'unhealthy: bypassing the cache'}`,
      );
  }

  function ping(): void {
    state.sent += 1;
    void send({ kind: 'ping', instance, seq: state.sent, heartbeatMs }).then((ok) => ok || setHealthy(false));
  }

  function onControl(message: ControlMessage): void {
    if (message.kind === 'bye') peers.delete(message.instance);
    if (message.kind === 'ping') {
      peers.set(message.instance, { lastSeen: Date.now(), heartbeatMs: message.heartbeatMs });
      if (message.instance !== instance) return;
      state.echoed = Math.max(state.echoed, message.seq);
      if (unlisten && state.echoed >= state.sent) setHealthy(true);
    }
    if (message.kind === 'ack') {
      if (!acks.has(message.nonce)) acks.set(message.nonce, new Set());
      acks.get(message.nonce)!.add(message.instance);
      if (acks.size > rememberedNonces) acks.delete(acks.keys().next().value!);
    }
    wakeAll();
  }

  function onNotify(payload: string): void {
    const message = decodeMessage(payload);
    if (message.kind !== 'invalidation') return onControl(message);
    options.onInvalidate(message.invalidation.target);
    if (message.invalidation.nonce) void send({ kind: 'ack', instance, nonce: message.invalidation.nonce });
  }

  // Called by postgres.js after the first LISTEN and after every automatic re-LISTEN.
  function onListen(): void {
    state.echoed = state.sent;
    options.onReset();
    setHealthy(true);
    ping();
  }

  async function start(): Promise<void> {
    state.starting = true;
    try {
      const result = await sql.listen(authInvalidateChannel, onNotify, onListen);
      unlisten = result.unlisten;
      if (state.closed) await unlisten();
    } catch (error) {
      log?.warn({ err: error }, 'LISTEN on the auth invalidation channel failed; will retry');
    } finally {
      state.starting = false;
    }
  }

  function beat(): void {
    if (!unlisten) {
      if (!state.starting) void start();
      return;
    }
    if (state.echoed < state.sent) setHealthy(false);
    ping();
    const now = Date.now();
    for (const [id, peer] of peers) if (now - peer.lastSeen > peerLivenessBeats * peer.heartbeatMs) peers.delete(id);
  }

  function acknowledgedByAll(nonce: string): boolean {
    const ackers = acks.get(nonce);
    if (!ackers?.has(instance)) return false;
    const now = Date.now();
    for (const [id, peer] of peers) {
      if (now - peer.lastSeen <= peerLivenessBeats * peer.heartbeatMs && !ackers.has(id)) return false;
    }
    return true;
  }

  function until(done: () => boolean, timeoutMs: number): Promise<boolean> {
    if (done()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = () => {
        if (!done() && Date.now() < deadline && !state.closed) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(done());
      };
      const deadline = Date.now() + timeoutMs;
      const timer = setTimeout(check, timeoutMs);
      waiters.add(check);
    });
  }

  void start();
  const timer = setInterval(beat, heartbeatMs);
  timer.unref();

  return {
    healthy: () => state.healthy,
    ready: (timeoutMs) => until(() => state.healthy, timeoutMs),
    // Unhealthy, it cannot hear acknowledgements: PostgreSQL still delivers the notification to
    // the others, but this instance cannot confirm it, so it answers false at once.
    waitFor: async (nonce, timeoutMs) =>
      state.healthy &&
      (await until(() => !state.healthy || acknowledgedByAll(nonce), timeoutMs)) &&
      acknowledgedByAll(nonce),
    async close() {
      state.closed = true;
      clearInterval(timer);
      if (unlisten) await send({ kind: 'bye', instance });
      setHealthy(false);
      wakeAll();
      await unlisten?.().catch(() => undefined);
    },
  };
}
