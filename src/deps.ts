// The plain typed object every handler receives: database, clock, ids, logger, configuration and the
// credential services. Built once by createServices (src/services.ts); tests pass a fixed clock.
import type { Logger } from 'pino';
import type { Sql } from 'postgres';
import type { Authenticator } from './auth/authenticator.ts';
import type { JwtService } from './auth/jwt.ts';
import type { LoginThrottle } from './auth/login-throttle.ts';
import type { PasswordHasher } from './auth/passwords.ts';
import type { RateLimiter } from './auth/rate-limiter.ts';
import type { AppConfig } from './config.ts';

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

export interface Deps {
  sql: Sql;
  clock: Clock;
  ids: Ids;
  log: Logger;
  config: AppConfig;
  authenticator: Authenticator;
  jwt: JwtService;
  passwords: PasswordHasher;
  limiter: RateLimiter;
  loginThrottle: LoginThrottle;
  apiKeyPepper: Uint8Array;
  /** The contract, parsed once, served at /openapi.json. */
  openapiDocument: Record<string, unknown>;
}
