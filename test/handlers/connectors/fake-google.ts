// A strict local fake of Google's OAuth 2.0 server, userinfo and the Gmail send API, over real HTTP,
// for the live code path. Independent of the service's own sandbox provider: it checks what Google
// checks (client secret, exact redirect URI, PKCE S256, single-use codes, refresh tokens), can be told
// to answer `invalid_grant` or to leave a scope out of the consent, and records every message sent
// (decoded from base64url and parsed as MIME) and every revocation. For the sender's fault tests it can
// hold the answer to one send (recorded: delivered, but the sender never hears so), make sends meet
// before any is recorded (proof that two senders were at it at once), drop the answer to one send, and
// counts sends in flight. Each account has a mailbox (fake-google-inbox.ts) that the Gmail read calls
// answer from: a test delivers messages into it, sent messages land in it (into the thread the send names),
// and its history can be expired. A consent with include_granted_scopes=true adds the scopes the account
// granted before, as Google's incremental authorization does.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { createInbox, type CannedAnswer, type Delivery, type InboxMessage } from './fake-google-inbox.ts';

export interface SentMessage {
  accessToken: string;
  raw: string;
  parsed: ParsedMail;
}

export interface ConsentChoice {
  email: string;
  /** Scopes the human leaves ticked (default: all requested). */
  grant?: string[];
  deny?: boolean;
}

export interface FakeGoogle {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Env that points the service at this fake in live mode. */
  env(): Record<string, string>;
  /** Plays the human on the consent screen: the URL the browser is sent back to. */
  consent(authorizationUrl: string, choice: ConsentChoice): Promise<string>;
  sent: SentMessage[];
  revoked: string[];
  refreshes: number;
  /** Requests the fake refused, with why (tests assert none were expected). */
  refusals: string[];
  /** The next refresh answers invalid_grant (the user revoked access at Google). */
  failRefreshWithInvalidGrant(): void;
  /** Makes every access token issued so far invalid, as if it expired. */
  expireAccessTokens(): void;
  /** Holds every refresh until release() is called, to test concurrent refreshes. */
  holdRefreshes(): { release(): void };
  /**
   * The send that arrives once `after` messages are recorded is recorded (Gmail delivers it) but its answer
   * is held until release(): `held` resolves with it, for a test to kill the sender while it waits.
   */
  holdSendAnswer(after: number): { held: Promise<SentMessage>; release(): void };
  /** The next `n` send requests wait for one another before any is recorded: they were in flight together. */
  meetSends(n: number): void;
  /** The next sends are refused with these answers, in order (a status, Gmail's error message and an optional Retry-After). */
  refuseNextSends(answers: Array<{ status: number; message: string; retryAfter?: number }>): void;
  /** The next send is recorded (Gmail delivers it) and its connection closed without an answer. */
  dropNextSendAnswer(): void;
  /** The most send requests the fake has had in flight at once. */
  peakSendsInFlight: number;
  /** Send requests accepted, recorded or not. */
  sendCount: number;
  /** A message arrives in `to`'s mailbox: its Gmail ids and the historyId it was added at. */
  deliver(delivery: Delivery): { id: string; threadId: string; historyId: string };
  /** History older than `historyId` is gone: history.list from before it answers 404. */
  expireHistoryBefore(historyId: string): void;
  /** The next Gmail reads get these answers instead (a status, a JSON body or a raw string, a Retry-After). */
  answerNextReads(answers: CannedAnswer[]): void;
  /** Every mailbox's messages, delivered and sent, in the order they were added. */
  mailboxes: InboxMessage[];
  /** The newest historyId. */
  historyId(): string;
  close(): Promise<void>;
}

const SEND = 'https://www.googleapis.com/auth/gmail.send';
const GOOGLE_SCOPE_NAMES: Record<string, string> = {
  email: 'https://www.googleapis.com/auth/userinfo.email',
  openid: 'openid',
  [SEND]: SEND,
};

/** `recordSent: false` (the benchmark) only counts accepted sends: no MIME parsing, nothing kept. */
export async function startFakeGoogle(options: {
  redirectUri: string | (() => string);
  recordSent?: boolean;
}): Promise<FakeGoogle> {
  const clientId = `fake-${randomBytes(4).toString('hex')}.apps.googleusercontent.com`;
  const clientSecret = `GOCSPX-${randomBytes(12).toString('base64url')}`;
  const codes = new Map<
    string,
    {
      challenge: string;
      redirectUri: string;
      email: string;
      scopes: string[];
      used: boolean;
      expires: number;
      issued: string[];
    }
  >();
  const refreshTokens = new Map<string, { email: string; scopes: string[]; revoked: boolean }>();
  const accessTokens = new Map<string, { email: string; scopes: string[]; valid: boolean; refresh?: string }>();
  const pendingChoices = new Map<string, ConsentChoice>();
  const refusals: Array<{ status: number; message: string; retryAfter?: number }> = [];
  const inbox = createInbox();
  /** Scopes each account has granted this client and not revoked (for include_granted_scopes). */
  const grantedBefore = new Map<string, Set<string>>();
  const fake = {
    sent: [] as SentMessage[],
    revoked: [] as string[],
    refreshes: 0,
    refusals: [] as string[],
    peakSendsInFlight: 0,
    sendCount: 0,
  };
  let invalidGrantNext = false;
  let dropAnswerNext = false;
  let hold: Promise<void> | undefined;
  let heldSend: { after: number; taken: boolean; arrived(m: SentMessage): void; released: Promise<void> } | undefined;
  let meeting: { waiting: number; n: number; all: Promise<void>; open(): void } | undefined;
  let sendsInFlight = 0;
  const redirectUri = () => (typeof options.redirectUri === 'string' ? options.redirectUri : options.redirectUri());

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: ServerResponse, status: number, error: string, why: string) => {
    fake.refusals.push(why);
    send(res, status, { error, error_description: why });
  };
  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  const bearer = (req: IncomingMessage) => {
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const found = accessTokens.get(token);
    return found?.valid ? { token, ...found } : undefined;
  };
  const issueAccess = (email: string, scopes: string[], refresh?: string) => {
    const token = `ya29.${randomBytes(24).toString('base64url')}`;
    accessTokens.set(token, { email, scopes, valid: true, refresh });
    return token;
  };

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    try {
      if (req.method === 'GET' && url.pathname === '/o/oauth2/v2/auth') {
        const p = url.searchParams;
        const problems = [
          p.get('client_id') !== clientId && 'client_id',
          p.get('redirect_uri') !== redirectUri() && 'redirect_uri',
          p.get('response_type') !== 'code' && 'response_type',
          p.get('code_challenge_method') !== 'S256' && 'code_challenge_method',
          !/^[A-Za-z0-9_-]{43}$/.test(p.get('code_challenge') ?? '') && 'code_challenge',
          p.get('access_type') !== 'offline' && 'access_type',
          p.get('prompt') !== 'consent' && 'prompt',
          !p.get('state') && 'state',
        ].filter(Boolean);
        if (problems.length)
          return refuse(res, 400, 'invalid_request', `authorization request: bad ${problems.join(', ')}`);
        const choice = pendingChoices.get(p.get('state') as string);
        if (!choice) return refuse(res, 400, 'invalid_request', 'no consent choice was scripted for this state');
        const target = new URL(redirectUri());
        target.searchParams.set('state', p.get('state') as string);
        if (choice.deny) {
          target.searchParams.set('error', 'access_denied');
        } else {
          const requested = (p.get('scope') ?? '').split(' ');
          const chosen = (choice.grant ?? requested).filter((s) => requested.includes(s));
          const earlier = p.get('include_granted_scopes') === 'true' ? (grantedBefore.get(choice.email) ?? []) : [];
          const scopes = [...new Set([...earlier, ...chosen])];
          const code = `4/0A${randomBytes(24).toString('base64url')}`;
          codes.set(code, {
            challenge: p.get('code_challenge') as string,
            redirectUri: p.get('redirect_uri') as string,
            email: choice.email,
            scopes,
            used: false,
            expires: Date.now() + 600_000,
            issued: [],
          });
          target.searchParams.set('code', code);
          target.searchParams.set('scope', scopes.map((s) => GOOGLE_SCOPE_NAMES[s] ?? s).join(' '));
        }
        res.writeHead(302, { location: target.href });
        return res.end();
      }
      if (req.method === 'POST' && url.pathname === '/token') {
        const form = new URLSearchParams(await readBody(req));
        if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret)
          return refuse(res, 401, 'invalid_client', 'token: wrong client credentials');
        if (form.get('grant_type') === 'authorization_code') {
          const code = codes.get(form.get('code') ?? '');
          if (!code) return refuse(res, 400, 'invalid_grant', 'token: unknown code');
          if (code.used) {
            code.issued.forEach((t) => accessTokens.delete(t));
            return refuse(res, 400, 'invalid_grant', 'token: code reused');
          }
          code.used = true;
          if (code.expires < Date.now()) return refuse(res, 400, 'invalid_grant', 'token: code expired');
          if (form.get('redirect_uri') !== code.redirectUri)
            return refuse(res, 400, 'redirect_uri_mismatch', 'token: redirect_uri differs');
          const verifier = form.get('code_verifier') ?? '';
          if (createHash('sha256').update(verifier).digest('base64url') !== code.challenge)
            return refuse(res, 400, 'invalid_grant', 'token: PKCE verifier does not match');
          const refresh = `1//0${randomBytes(24).toString('base64url')}`;
          refreshTokens.set(refresh, { email: code.email, scopes: code.scopes, revoked: false });
          grantedBefore.set(code.email, new Set([...(grantedBefore.get(code.email) ?? []), ...code.scopes]));
          const access = issueAccess(code.email, code.scopes, refresh);
          code.issued.push(access);
          return send(res, 200, {
            access_token: access,
            expires_in: 3599,
            refresh_token: refresh,
            scope: code.scopes.map((s) => GOOGLE_SCOPE_NAMES[s] ?? s).join(' '),
            token_type: 'Bearer',
            id_token: 'unused',
          });
        }
        if (form.get('grant_type') === 'refresh_token') {
          fake.refreshes += 1;
          if (hold) await hold;
          const found = refreshTokens.get(form.get('refresh_token') ?? '');
          if (invalidGrantNext || !found || found.revoked) {
            invalidGrantNext = false;
            return send(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
          }
          const access = issueAccess(found.email, found.scopes, form.get('refresh_token') as string);
          return send(res, 200, {
            access_token: access,
            expires_in: 3599,
            scope: found.scopes.map((s) => GOOGLE_SCOPE_NAMES[s] ?? s).join(' '),
            token_type: 'Bearer',
          });
        }
        return refuse(res, 400, 'unsupported_grant_type', 'token: grant_type');
      }
      if (req.method === 'POST' && url.pathname === '/revoke') {
        const token = new URLSearchParams(await readBody(req)).get('token') ?? '';
        const refresh = refreshTokens.get(token);
        const access = accessTokens.get(token);
        if (!refresh && !access) return send(res, 400, { error: 'invalid_token' });
        fake.revoked.push(token);
        const refreshKey = refresh ? token : access?.refresh;
        if (refreshKey) {
          refreshTokens.get(refreshKey)!.revoked = true;
          grantedBefore.delete(refreshTokens.get(refreshKey)!.email);
        }
        for (const a of accessTokens.values()) if (a.refresh === refreshKey || a === access) a.valid = false;
        res.writeHead(200);
        return res.end();
      }
      if (req.method === 'GET' && url.pathname === '/v1/userinfo') {
        const who = bearer(req);
        if (!who) return send(res, 401, { error: 'invalid_token' });
        return send(res, 200, {
          sub: createHash('sha256').update(who.email).digest('hex').slice(0, 21),
          email: who.email,
          email_verified: true,
        });
      }
      if (req.method === 'POST' && url.pathname === '/gmail/v1/users/me/messages/send') {
        const who = bearer(req);
        if (!who) return send(res, 401, { error: { code: 401, status: 'UNAUTHENTICATED' } });
        if (!who.scopes.includes(SEND)) return send(res, 403, { error: { code: 403, status: 'PERMISSION_DENIED' } });
        const body = JSON.parse(await readBody(req)) as { raw?: string; threadId?: string };
        if (typeof body.raw !== 'string' || !/^[A-Za-z0-9_-]+={0,2}$/.test(body.raw))
          return refuse(res, 400, 'invalid_argument', 'gmail send: raw is not base64url');
        if (
          body.threadId !== undefined &&
          !inbox.messages.some((m) => m.mailbox === who.email && m.threadId === body.threadId)
        )
          return send(res, 404, {
            error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' },
          });
        const refusal = refusals.shift();
        if (refusal) {
          if (refusal.retryAfter !== undefined) res.setHeader('retry-after', String(refusal.retryAfter));
          return send(res, refusal.status, {
            error: {
              code: refusal.status,
              message: refusal.message,
              status: refusal.status === 429 ? 'RESOURCE_EXHAUSTED' : 'INVALID_ARGUMENT',
            },
          });
        }
        fake.sendCount += 1;
        if (options.recordSent === false)
          return send(res, 200, {
            id: `18c${randomBytes(6).toString('hex')}`,
            threadId: body.threadId ?? `18c${randomBytes(6).toString('hex')}`,
            labelIds: ['SENT'],
          });
        const parsed = await simpleParser(Buffer.from(body.raw, 'base64url'));
        let ids: { id: string; threadId: string } | undefined;
        sendsInFlight += 1;
        fake.peakSendsInFlight = Math.max(fake.peakSendsInFlight, sendsInFlight);
        try {
          if (meeting && meeting.waiting < meeting.n) {
            const m = meeting;
            if (++m.waiting === m.n) m.open();
            await m.all;
          }
          const message = { accessToken: who.token, raw: body.raw, parsed };
          fake.sent.push(message);
          ids = inbox.recordSent(who.email, headersOf(parsed), parsed.text ?? '', body.threadId);
          if (dropAnswerNext) {
            dropAnswerNext = false;
            req.socket.destroy();
            return;
          }
          if (heldSend && !heldSend.taken && fake.sent.length === heldSend.after + 1) {
            heldSend.taken = true;
            heldSend.arrived(message);
            await heldSend.released;
          }
        } finally {
          sendsInFlight -= 1;
        }
        if (res.destroyed) return;
        return send(res, 200, { ...ids, labelIds: ['SENT'] });
      }
      if (req.method === 'GET' && url.pathname.startsWith('/gmail/v1/users/me/')) {
        const who = bearer(req);
        if (!who)
          return send(res, 401, {
            error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
          });
        return inbox.handle(url, who.email, who.scopes, res);
      }
      send(res, 404, { error: 'not_found' });
    } catch (error) {
      fake.refusals.push(`fake crashed: ${(error as Error).message}`);
      send(res, 500, { error: 'internal' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return Object.assign(fake, {
    url: base,
    clientId,
    clientSecret,
    env: () => ({
      GOOGLE_CLIENT_ID: clientId,
      GOOGLE_CLIENT_SECRET: clientSecret,
      GOOGLE_AUTHORIZATION_URL: `${base}/o/oauth2/v2/auth`,
      GOOGLE_TOKEN_URL: `${base}/token`,
      GOOGLE_REVOCATION_URL: `${base}/revoke`,
      GOOGLE_USERINFO_URL: `${base}/v1/userinfo`,
      GMAIL_API_BASE: base,
    }),
    async consent(authorizationUrl: string, choice: ConsentChoice) {
      const state = new URL(authorizationUrl).searchParams.get('state') as string;
      pendingChoices.set(state, choice);
      const res = await fetch(authorizationUrl, { redirect: 'manual' });
      if (res.status !== 302) throw new Error(`fake consent answered ${res.status}: ${await res.text()}`);
      return res.headers.get('location') as string;
    },
    failRefreshWithInvalidGrant() {
      invalidGrantNext = true;
    },
    expireAccessTokens() {
      for (const a of accessTokens.values()) a.valid = false;
    },
    holdRefreshes() {
      let release!: () => void;
      hold = new Promise<void>((resolve) => (release = resolve));
      return {
        release: () => {
          hold = undefined;
          release();
        },
      };
    },
    holdSendAnswer(after: number) {
      let arrived!: (m: SentMessage) => void;
      let release!: () => void;
      const held = new Promise<SentMessage>((resolve) => (arrived = resolve));
      heldSend = { after, taken: false, arrived, released: new Promise<void>((resolve) => (release = resolve)) };
      return { held, release };
    },
    refuseNextSends(answers: Array<{ status: number; message: string; retryAfter?: number }>) {
      refusals.push(...answers);
    },
    dropNextSendAnswer() {
      dropAnswerNext = true;
    },
    meetSends(n: number) {
      let open!: () => void;
      meeting = { waiting: 0, n, all: new Promise<void>((resolve) => (open = resolve)), open: () => open() };
    },
    deliver: inbox.deliver,
    expireHistoryBefore: inbox.expireHistoryBefore,
    answerNextReads: inbox.answerNextReads,
    mailboxes: inbox.messages,
    historyId: inbox.historyId,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** A parsed message's header lines as Gmail's {name, value} (unfolded). */
const headersOf = (parsed: ParsedMail) =>
  parsed.headerLines.map(({ line }) => {
    const colon = line.indexOf(':');
    return {
      name: line.slice(0, colon).trim(),
      value: line
        .slice(colon + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim(),
    };
  });
