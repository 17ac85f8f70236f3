// The plain typed object every operation receives, grouped by what it is for: the database, time and
// ids, the logger, configuration, the credential services, and the parsed contract. Built once by
// createServices (src/services.ts); tests pass a fixed clock. Add a new group (or a field to the
// group it belongs to) rather than another top-level field. It names platform types only (no area
// module, no job kind): areas import Deps, never the other way round.
import type { Logger } from 'pino';
import type { Sql } from 'postgres';
import type { Authenticator } from './auth/authenticator.ts';
import type { JwtService } from './auth/jwt.ts';
import type { LoginThrottle } from './auth/login-throttle.ts';
import type { PasswordHasher } from './auth/passwords.ts';
import type { RateLimiter } from './auth/rate-limiter.ts';
import type { Sealer } from './auth/sealer.ts';
import type { TokenKeyring } from './auth/token-keyring.ts';
import type { Clock } from './clock.ts';
import type { AppConfig } from './config.ts';
import type { Queryable } from './db/queryable.ts';
import type { ResourceWatch } from './http/resource-watch.ts';
import type { JobQueue } from './jobs/jobs.ts';
import type { OutboundClient } from './outbound/outbound-client.ts';
import type { GmailEndpoints, MetaEndpoints } from './outbound/provider-endpoints.ts';

/**
 * An event as recordEvent stored it: the shape of the events table's row (EventRow in
 * src/handlers/events/events-data.ts, which the compiler holds to this one where subscribers are registered).
 */
export interface RecordedEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  actor: { type: 'user' | 'api_key' | 'operator' | 'system'; id: string | null };
  created_at: Date;
}

/**
 * Runs for recorded events inside the transaction `tx` that records them, so what it writes or enqueues
 * commits or rolls back with the change: one event, or the events one change recorded at once (a batch of
 * sends), in the order they were recorded.
 */
export type EventSubscriber = (
  deps: Deps,
  tx: Queryable,
  workspaceId: string,
  events: readonly RecordedEvent[],
) => Promise<void>;

export interface Ids {
  /** A prefixed, sortable, random id such as `ws_01j...`. */
  make(prefix: string): string;
}

/** The open database; `kind` tells what the embedded one cannot do (no NOTIFY across its socket). */
export interface DbDeps {
  sql: Sql;
  kind: 'postgres' | 'pglite';
}

/** Credentials: who is calling, how they log in, and how much they may call. */
export interface AuthDeps {
  authenticator: Authenticator;
  jwt: JwtService;
  passwords: PasswordHasher;
  loginThrottle: LoginThrottle;
  limiter: RateLimiter;
  /** Server secret keying the HMACs of API keys, invitation tokens and list cursors. */
  apiKeyPepper: Uint8Array;
}

export interface ContractDeps {
  /**
   * The contract, served at /openapi.json: parsed on first use and kept, since parsing its YAML costs a tenth of a
   * second of CPU that a start need not spend.
   */
  openapiDocument(): Record<string, unknown>;
  /**
   * Its info.version: the one version the service reports (MCP serverInfo, /docs, the packages); read from
   * package.json, which keeps it equal (test/app/docs-pages.test.ts).
   */
  version: string;
}

/** The Gmail connector: the provider's endpoints (live Google, or the service's own sandbox) and the token keys. */
export interface ConnectorDeps {
  gmail: GmailEndpoints;
  /** The meta_ads connector's endpoints: live Meta, or the service's own sandbox ads platform. */
  meta: MetaEndpoints;
  /** Seals tokens and PKCE verifiers with a key that is not in the database. */
  tokenKeys: TokenKeyring;
  /** `${PUBLIC_BASE_URL}/oauth/callback`, registered with the provider. */
  redirectUri: string;
}

export interface Deps {
  db: DbDeps;
  clock: Clock;
  ids: Ids;
  log: Logger;
  config: AppConfig;
  auth: AuthDeps;
  contract: ContractDeps;
  /** Background work: enqueue (in the caller's transaction) a job kind its module exports. */
  jobs: JobQueue;
  /**
   * What recordEvent runs for every event, inside the transaction that records it (webhook fan-out,
   * agent resumption), in order; registered at the composition root (src/services.ts).
   */
  eventSubscribers: readonly EventSubscriber[];
  /** The one HTTP client for user-given URLs: SSRF-safe, size- and time-limited. */
  outbound: OutboundClient;
  /**
   * Wakes calls waiting on a resource (get_operation, get_connector): whatever changes an operation's or a
   * connector's status calls `changed(id)` after committing.
   */
  resourceWatch: ResourceWatch;
  connectors: ConnectorDeps;
  /** Secrets stored for reading back, each kind under its own key. */
  sealing: { webhookSecrets: Sealer };
}
