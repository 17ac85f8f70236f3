// The admin panel's session, which keeps a person signed in across tabs and past the 15-minute JWT: an
// httpOnly, SameSite=Strict cookie scoped to /admin holding a random token (stored as its sha256) that mints
// short JWTs with the same signer login uses. Panel-only: not part of the API contract, and API clients keep
// their bearer JWTs and keys as they are. Every call must come from the service's own origin (CSRF), and the
// token rotates on each refresh (docs/credentials-and-keys.md, "Staying signed in to the admin panel", says why).
import { createHash, randomBytes } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { rateLimitHeaders } from '../auth/rate-limiter.ts';
import type { Deps } from '../deps.ts';
import { ApiError } from '../errors.ts';
import { noWorkspace, unauthorized } from '../http/operation-guard.ts';
import type { AppEnv } from '../http/request-context.ts';
import { deleteSession, findSessionByToken, insertSession, rotateSession } from './session-data.ts';

export const SESSION_COOKIE = 'admin_session';
const COOKIE_PATH = '/admin';
/** How long the token a refresh replaced still answers, for a second tab that sent it at the same moment. */
export const REUSE_GRACE_SECONDS = 60;

/** Paths for the service's 404/405 table. */
export const adminSessionPaths = [
  { path: '/admin/session', methods: ['POST', 'DELETE'] },
  { path: '/admin/session/refresh', methods: ['POST'] },
];

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

const sessionEnded = () =>
  new ApiError('unauthorized', 'The panel session has ended (signed out, expired or revoked); sign in again.');

/** A cross-site page can make a browser POST here, but not with our Origin: no Origin, or another, is refused. */
function requireSameOrigin(c: Context<AppEnv>, deps: Deps): void {
  const origin = c.req.header('origin');
  const own = [new URL(c.req.url).origin, new URL(deps.config.publicBaseUrl).origin];
  if (!origin || !own.includes(origin))
    throw new ApiError('forbidden', "Refused: the panel's session calls must come from the service's own origin.");
}

/** Counted per client address like a public operation, so the refresh cannot be used to guess tokens. */
function throttle(c: Context<AppEnv>, deps: Deps): void {
  const { perAddress, windowSeconds } = deps.config.rateLimit;
  const result = deps.auth.limiter.check(`addr:${c.get('clientAddress')}`, perAddress, windowSeconds, 'address');
  if (!result.allowed)
    throw new ApiError('rate_limited', `Too many requests; retry after ${result.resetSeconds} seconds.`, {
      headers: rateLimitHeaders(result),
    });
}

function isTls(c: Context<AppEnv>, deps: Deps): boolean {
  const forwarded = deps.config.trustProxy && c.req.header('x-forwarded-proto') === 'https';
  return forwarded || new URL(c.req.url).protocol === 'https:' || deps.config.publicBaseUrl.startsWith('https:');
}

function putCookie(c: Context<AppEnv>, deps: Deps, token: string, expiresAt: Date): void {
  const maxAge = Math.max(1, Math.ceil((expiresAt.getTime() - deps.clock.now().getTime()) / 1000));
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    secure: isTls(c, deps),
    sameSite: 'Strict',
    path: COOKIE_PATH,
    maxAge,
  });
}

function clearCookie(c: Context<AppEnv>, deps: Deps): void {
  deleteCookie(c, SESSION_COOKIE, { path: COOKIE_PATH, httpOnly: true, sameSite: 'Strict', secure: isTls(c, deps) });
}

/** Starts a session for the person whose JWT (from login, signup or an invitation) is the bearer. */
async function startSession(c: Context<AppEnv>, deps: Deps): Promise<Response> {
  const principal = await deps.auth.authenticator.authenticate(c.req.header('authorization'));
  if (!principal) throw unauthorized(c.req.header('authorization') !== undefined);
  if (principal.kind === 'account') throw noWorkspace();
  if (principal.kind !== 'jwt')
    throw new ApiError('forbidden', "A panel session starts from a person's login (a JWT), not from an API key.");
  await endSession(c, deps);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + deps.config.adminSession.ttlSeconds * 1000);
  const token = newToken();
  await insertSession(deps.db.sql, principal.workspaceId, {
    id: deps.ids.make('ses'),
    userId: principal.userId,
    tokenHash: hashToken(token),
    now,
    expiresAt,
  });
  putCookie(c, deps, token, expiresAt);
  return c.json({ expires_at: expiresAt.toISOString() }, 201);
}

/**
 * A fresh JWT for the cookie's session, and a new token for the cookie. The token it replaced still answers
 * for REUSE_GRACE_SECONDS (without a new cookie: the browser already has it); after that it is taken as a
 * stolen copy and the session ends, for the thief and the person alike.
 */
async function refreshSession(c: Context<AppEnv>, deps: Deps): Promise<Response> {
  const token = getCookie(c, SESSION_COOKIE);
  if (!token) throw sessionEnded();
  const sql = deps.db.sql;
  const now = deps.clock.now();
  const presented = hashToken(token);
  const session = await findSessionByToken(sql, presented, now);
  if (!session) throw sessionEnded();
  const inGrace =
    session.rotated_at !== null && now.getTime() - session.rotated_at.getTime() <= REUSE_GRACE_SECONDS * 1000;
  if (!session.alive || (!session.current && !inGrace)) {
    await deleteSession(sql, session.workspace_id, session.id);
    if (session.alive) deps.log.warn({ session_id: session.id }, 'admin session token replayed; session ended');
    throw sessionEnded();
  }
  if (session.current) {
    const next = newToken();
    const rotated = await rotateSession(sql, session.workspace_id, {
      id: session.id,
      fromHash: presented,
      toHash: hashToken(next),
      now,
    });
    // Lost the race to another tab's refresh: that one sets the cookie; this one only needs the JWT.
    if (rotated) putCookie(c, deps, next, session.expires_at);
  }
  const login = await deps.auth.jwt.sign({ userId: session.user_id, workspaceId: session.workspace_id });
  return c.json({ ...login, session_expires_at: session.expires_at.toISOString() });
}

/** Sign-out: the cookie's session is deleted, whatever state it was in. */
async function endSession(c: Context<AppEnv>, deps: Deps): Promise<void> {
  const token = getCookie(c, SESSION_COOKIE);
  if (!token) return;
  const session = await findSessionByToken(deps.db.sql, hashToken(token), deps.clock.now());
  if (session) await deleteSession(deps.db.sql, session.workspace_id, session.id);
}

export function adminSessionRoutes(app: Hono<AppEnv>, deps: Deps): void {
  app.use('/admin/session', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  app.use('/admin/session/*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  app.post('/admin/session', (c) => {
    requireSameOrigin(c, deps);
    throttle(c, deps);
    return startSession(c, deps);
  });
  app.post('/admin/session/refresh', (c) => {
    requireSameOrigin(c, deps);
    throttle(c, deps);
    return refreshSession(c, deps);
  });
  app.delete('/admin/session', async (c) => {
    requireSameOrigin(c, deps);
    throttle(c, deps);
    await endSession(c, deps);
    clearCookie(c, deps);
    return c.body(null, 204);
  });
}
