// A strict local fake of Facebook Login and the Graph (Marketing) API endpoints a launch uses, over real
// HTTP, for the live code path. Independent of the service's sandbox ads platform: it checks the app
// secret, the exact redirect URI, PKCE S256, single-use codes, an access_token on every Graph call and
// the fields each object needs. Tests script what Meta would do: approve or disapprove ads (with a
// reason), report delivery, answer rate limits (code 17 / 80004) or expire the token (OAuthException 190),
// or fail one request as a crash would.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GraphObject {
  id: string;
  kind: 'campaign' | 'adset' | 'adcreative' | 'ad';
  status: string;
  fields: Record<string, unknown>;
}

type Failure = 'rate_limit' | 'token_expired' | 'server_error';

export interface FakeGraph {
  url: string;
  adAccount: string;
  env(): Record<string, string>;
  /** Plays the human on the consent dialog: the URL the browser is sent back to. */
  consent(authorizationUrl: string): Promise<string>;
  objects: GraphObject[];
  /** Every Graph request, as "METHOD /path". */
  requests: string[];
  /** Requests refused for a reason a correct client never gives (tests expect none). */
  refusals: string[];
  /** The review decides: every ad becomes ACTIVE, or DISAPPROVED with this reason; `pending` (the default) keeps them in review. */
  review(decision: { approve: true } | { disapprove: string } | 'pending'): void;
  /** Lifetime insights of every campaign; undefined: no delivery (no rows). */
  deliver(insights: { spend: string; impressions: string; clicks: string } | undefined): void;
  /** The next request whose "METHOD /path" matches fails so, `times` times. */
  failNext(match: RegExp, failure: Failure, times?: number): void;
  close(): Promise<void>;
}

const REQUIRED: Record<GraphObject['kind'], string[]> = {
  campaign: ['name', 'objective', 'status', 'special_ad_categories'],
  adset: ['name', 'campaign_id', 'daily_budget', 'billing_event', 'optimization_goal', 'targeting', 'status', 'start_time'],
  adcreative: ['name', 'object_story_spec'],
  ad: ['name', 'adset_id', 'creative', 'status'],
};
const EDGES: Record<string, GraphObject['kind']> = { campaigns: 'campaign', adsets: 'adset', adcreatives: 'adcreative', ads: 'ad' };

export async function startFakeGraph(options: { redirectUri: () => string }): Promise<FakeGraph> {
  const appId = String(100000 + Math.floor(Math.random() * 899999));
  const appSecret = randomBytes(16).toString('hex');
  const adAccount = 'act_4242';
  const codes = new Map<string, { challenge: string; redirectUri: string; used: boolean }>();
  const tokens = new Set<string>();
  const failures: Array<{ match: RegExp; failure: Failure; times: number }> = [];
  let review: { approve: true } | { disapprove: string } | undefined;
  let insights: { spend: string; impressions: string; clicks: string } | undefined;
  let seq = 120000000;
  const fake = { objects: [] as GraphObject[], requests: [] as string[], refusals: [] as string[] };

  const error = (res: ServerResponse, status: number, code: number, message: string, type = 'OAuthException'): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message, type, code, fbtrace_id: 'fake' } }));
  };
  const refuse = (res: ServerResponse, why: string): void => {
    fake.refusals.push(why);
    error(res, 400, 100, `Invalid parameter: ${why}`);
  };
  const ok = (res: ServerResponse, body: unknown): void => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  function effective(o: GraphObject): string {
    const parentOf = (x: GraphObject) => fake.objects.find((p) => p.id === (x.kind === 'ad' ? x.fields.adset_id : x.fields.campaign_id));
    if (o.status !== 'ACTIVE') return o.status;
    for (let p = parentOf(o); p; p = p.kind === 'campaign' ? undefined : parentOf(p)) if (p.status !== 'ACTIVE') return `${p.kind === 'campaign' ? 'CAMPAIGN' : 'ADSET'}_PAUSED`;
    if (o.kind !== 'ad' || !review) return o.kind === 'ad' ? 'PENDING_REVIEW' : 'ACTIVE';
    return 'approve' in review ? 'ACTIVE' : 'DISAPPROVED';
  }

  async function graph(req: IncomingMessage, res: ServerResponse, path: string, params: URLSearchParams): Promise<void> {
    const line = `${req.method} ${path}`;
    fake.requests.push(line);
    const failure = failures.find((f) => f.match.test(line));
    if (failure) {
      if (--failure.times <= 0) failures.splice(failures.indexOf(failure), 1);
      if (failure.failure === 'rate_limit') return error(res, 400, 80004, 'There have been too many calls to this ad-account. Wait a bit and try again.');
      if (failure.failure === 'token_expired') {
        tokens.clear();
        return error(res, 400, 190, 'Error validating access token: Session has expired.');
      }
      return void res.writeHead(500).end('{}');
    }
    if (!tokens.has(params.get('access_token') ?? '')) return error(res, 400, 190, 'Invalid OAuth access token - Cannot parse access token');
    const parts = path.split('/').filter(Boolean);
    if (path === '/me/permissions') return ok(res, { data: [{ permission: 'ads_management', status: 'granted' }, { permission: 'ads_read', status: 'granted' }] });
    if (path === '/me/adaccounts') return ok(res, { data: [{ id: adAccount, name: 'Acme ads', currency: 'USD' }] });
    if (path === '/me/accounts') return ok(res, { data: [{ id: '555000111', name: 'Acme page' }] });
    if (req.method === 'POST' && parts.length === 2 && EDGES[parts[1]]) {
      if (parts[0] !== adAccount) return refuse(res, `unknown ad account ${parts[0]}`);
      const kind = EDGES[parts[1]];
      const missing = REQUIRED[kind].filter((f) => !params.get(f));
      if (missing.length) return refuse(res, `${kind} without ${missing.join(', ')}`);
      if (params.has('status') && params.get('status') !== 'PAUSED') return refuse(res, `${kind} created ${params.get('status')}, not PAUSED`);
      const fields = Object.fromEntries([...params].filter(([k]) => k !== 'access_token').map(([k, v]) => [k, /^[[{]/.test(v) ? JSON.parse(v) : v]));
      if (kind === 'adset' && !/^\d+$/.test(String(fields.daily_budget))) return refuse(res, 'daily_budget not an integer of minor units');
      const object = { id: String(++seq), kind, status: String(fields.status ?? 'ACTIVE'), fields };
      fake.objects.push(object);
      return ok(res, { id: object.id });
    }
    const object = fake.objects.find((o) => o.id === parts[0]);
    if (!object) return error(res, 400, 100, `Unsupported request. Object with ID '${parts[0]}' does not exist`, 'GraphMethodException');
    if (req.method === 'POST' && parts.length === 1) {
      object.status = params.get('status') ?? object.status;
      return ok(res, { success: true });
    }
    if (parts[1] === 'insights') return ok(res, { data: insights ? [{ ...insights, date_start: '2030-03-01', date_stop: '2030-03-02' }] : [] });
    const status = effective(object);
    const disapproved = status === 'DISAPPROVED' && review && 'disapprove' in review ? review.disapprove : undefined;
    return ok(res, { id: object.id, status: object.status, effective_status: status, ...(disapproved && { issues_info: [{ error_code: 1487, error_summary: 'Ad disapproved', error_message: disapproved, level: 'AD' }], ad_review_feedback: { global: { 'Advertising Policies': disapproved } } }) });
  }

  function token(req: IncomingMessage, res: ServerResponse, q: URLSearchParams): void {
    const code = codes.get(q.get('code') ?? '');
    if (q.get('client_id') !== appId || q.get('client_secret') !== appSecret) return error(res, 400, 1, 'Error validating client secret.');
    if (!code || code.used) return error(res, 400, 100, 'This authorization code has been used.');
    code.used = true;
    if (q.get('redirect_uri') !== code.redirectUri) return error(res, 400, 100, 'redirect_uri is not identical');
    if (createHash('sha256').update(q.get('code_verifier') ?? '').digest('base64url') !== code.challenge) return error(res, 400, 100, 'Invalid code verifier');
    const access = `EAAfake${randomBytes(16).toString('hex')}`;
    tokens.add(access);
    ok(res, { access_token: access, token_type: 'bearer', expires_in: 5183944 });
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const params = new URLSearchParams(url.search);
      if (req.method === 'POST') for (const [k, v] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) params.set(k, v);
      const path = url.pathname.replace(/^\/v21\.0/, '');
      const handled = path === '/oauth/access_token' ? Promise.resolve(token(req, res, params)) : graph(req, res, path, params);
      handled.catch((e: Error) => res.writeHead(500).end(JSON.stringify({ error: { message: e.message } })));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    ...fake,
    url,
    adAccount,
    env: () => ({ META_APP_ID: appId, META_APP_SECRET: appSecret, META_AUTHORIZATION_URL: `${url}/v21.0/dialog/oauth`, META_TOKEN_URL: `${url}/v21.0/oauth/access_token`, META_GRAPH_API_BASE: `${url}/v21.0` }),
    async consent(authorizationUrl) {
      const q = new URL(authorizationUrl).searchParams;
      if (q.get('client_id') !== appId || q.get('redirect_uri') !== options.redirectUri() || q.get('code_challenge_method') !== 'S256') throw new Error(`bad dialog request ${authorizationUrl}`);
      if (q.get('scope') !== 'ads_management,ads_read') throw new Error(`unexpected scope ${q.get('scope')}`);
      const code = randomBytes(24).toString('base64url');
      codes.set(code, { challenge: q.get('code_challenge') as string, redirectUri: q.get('redirect_uri') as string, used: false });
      const back = new URL(q.get('redirect_uri') as string);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') as string);
      return back.href;
    },
    review: (decision) => { review = decision === 'pending' ? undefined : decision; },
    deliver: (i) => { insights = i; },
    failNext: (match, failure, times = 1) => { failures.push({ match, failure, times }); },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
