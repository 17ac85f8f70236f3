// The plain typed object every operation receives, grouped by what it is for: the database, time and
// ids, the logger, configuration, the credential services, and the parsed contract. Built once by
// createServices (src/services.ts); tests pass a fixed clock. Add a new group (or a field to the
// group it belongs to) rather than another top-level field.
import type { Logger } from 'pino';
import type { Sql } from 'postgres';
import type { Authenticator } from './auth/authenticator.ts';
import type { JwtService } from './auth/jwt.ts';
import type { LoginThrottle } from './auth/login-throttle.ts';
import type { PasswordHasher } from './auth/passwords.ts';
import type { RateLimiter } from './auth/rate-limiter.ts';
import type { AppConfig } from './config.ts';
import type { Sealer } from './auth/sealer.ts';
import type { JobQueue } from './jobs/jobs.ts';
import type { ServiceJobKinds } from './jobs/kinds.ts';
import type { OperationWatch } from './handlers/operations/operation-watch.ts';
import type { OutboundClient } from './outbound/outbound-client.ts';
import type { GmailEndpoints } from './handlers/connectors/google/google-client.ts';
import type { MetaEndpoints } from './handlers/connectors/meta/graph-client.ts';
import type { TokenKeyring } from './handlers/connectors/token-keys.ts';

export interface Clock {
  now(): Date;
}

export interface Ids {
  /** A prefixed, sortable, random id such as `ws_01j...`. */
  make(prefix: string): string;
}

export interface Principal {
  kind: 'jwt' | 'api_key';
  userId: string;
  workspaceId: string;
  role: 'owner' | 'admin' | 'member';
  scopes: string[];
  /** API key id for `api_key`, the token's `jti` for `jwt`. */
  credentialId: string;
}

/**
 * A person's login that names no workspace: every membership of theirs was removed. It can accept an
 * invitation; every workspace operation refuses it with 403 `no_workspace`.
 */
export interface AccountLogin {
  kind: 'account';
  userId: string;
  /** The token's `jti`. */
  credentialId: string;
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
  /** The contract, parsed once, served at /openapi.json. */
  openapiDocument: Record<string, unknown>;
  /** Its info.version: the one version the service reports (MCP serverInfo, /docs, the packages). */
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
  /** Background work: enqueue (in the caller's transaction) one of `jobKinds`, the service's registered kinds. */
  jobs: JobQueue;
  jobKinds: ServiceJobKinds;
  /** The one HTTP client for user-given URLs: SSRF-safe, size- and time-limited. */
  outbound: OutboundClient;
  /**
   * Wakes calls waiting on a resource (get_operation, get_connector): whatever changes an operation's or a
   * connector's status calls `changed(id)` after committing.
   */
  resourceWatch: OperationWatch;
  connectors: ConnectorDeps;
  /** Secrets stored for reading back, each kind under its own key. */
  sealing: { webhookSecrets: Sealer };
}
