// A strict local fake of Facebook Login and the Graph (Marketing) API endpoints a launch uses, over real
// HTTP, for the live code path. Independent of the service's sandbox ads platform: it checks the app
// secret, the exact redirect URI, PKCE S256, single-use codes, an access_token on every Graph call and
// the fields each object needs and takes (an unknown field is refused), what an edit may change, and
// that targeting names only interests its search knows. Tests script what Meta would do: approve or
// disapprove ads (with a reason), report delivery, answer rate limits (code 17 / 80004) or expire the
// token (OAuthException 190), fail one request as a crash would, or create the object and lose the
// answer (the service dies between Meta's create and its own save).
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GraphObject {
  id: string;
  kind: 'campaign' | 'adset' | 'adcreative' | 'ad';
  status: string;
  fields: Record<string, unknown>;
}

type Failure = 'rate_limit' | 'token_expired' | 'server_error' | 'lost_response';

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
  /** Every accepted edit (POST /<id>), status changes included. */
  edits: Array<{ id: string; change: Record<string, unknown> }>;
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
  adset: [
    'name',
    'campaign_id',
    'daily_budget',
    'billing_event',
    'optimization_goal',
    'targeting',
    'status',
    'start_time',
  ],
  adcreative: ['name', 'object_story_spec'],
  ad: ['name', 'adset_id', 'creative', 'status'],
};
const OPTIONAL: Record<GraphObject['kind'], string[]> = {
  campaign: [],
  adset: ['bid_strategy', 'end_time'],
  adcreative: [],
  ad: [],
};
const EDITABLE: Record<GraphObject['kind'], string[]> = {
  campaign: ['name', 'status'],
  adset: ['name', 'status', 'daily_budget', 'end_time', 'targeting'],
  adcreative: ['name'],
  ad: ['name', 'status', 'creative'],
};
const TARGETING = ['geo_locations', 'age_min', 'age_max', 'flexible_spec'];
const EDGES: Record<string, GraphObject['kind']> = {
  campaigns: 'campaign',
  adsets: 'adset',
  adcreatives: 'adcreative',
  ads: 'ad',
};
/** The interests Meta's targeting search knows here. */
export const FAKE_INTERESTS = [
  { id: '6003020834693', name: 'Marketing automation' },
  { id: '6003371567474', name: 'Small business' },
  { id: '6003107902433', name: 'Online advertising' },
];

/** Why a targeting spec is refused: an unknown key, or an interest (by id and name) the search does not know. */
function targetingProblem(targeting: unknown): string | undefined {
  if (!targeting || typeof targeting !== 'object') return 'targeting not an object';
  const extra = Object.keys(targeting).filter((k) => !TARGETING.includes(k));
  if (extra.length) return `targeting with unknown ${extra.join(', ')}`;
  const groups = (targeting as { flexible_spec?: unknown }).flexible_spec;
  if (groups === undefined) return undefined;
  const interests = Array.isArray(groups)
    ? groups.flatMap((g: { interests?: unknown }) => (Array.isArray(g?.interests) ? g.interests : [null]))
    : [null];
  const bad = interests.find(
    (i: { id?: unknown; name?: unknown } | null) => !FAKE_INTERESTS.some((k) => k.id === i?.id && k.name === i?.name),
  );
  return bad === undefined ? undefined : `unknown interest ${JSON.stringify(bad)}`;
}

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
  const fake = {
    objects: [] as GraphObject[],
    requests: [] as string[],
    refusals: [] as string[],
    edits: [] as Array<{ id: string; change: Record<string, unknown> }>,
  };

  const error = (res: ServerResponse, status: number, code: number, message: string, type = 'OAuthException'): void => {
    res
      .writeHead(status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message, type, code, fbtrace_id: 'fake' } }));
  };
  const refuse = (res: ServerResponse, why: string): void => {
    fake.refusals.push(why);
    error(res, 400, 100, `Invalid parameter: ${why}`);
  };
  const ok = (res: ServerResponse, body: unknown): void => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  function effective(o: GraphObject): string {
    const parentOf = (x: GraphObject) =>
      fake.objects.find((p) => p.id === (x.kind === 'ad' ? x.fields.adset_id : x.fields.campaign_id));
    if (o.status !== 'ACTIVE') return o.status;
    for (let p = parentOf(o); p; p = p.kind === 'campaign' ? undefined : parentOf(p))
      if (p.status !== 'ACTIVE') return `${p.kind === 'campaign' ? 'CAMPAIGN' : 'ADSET'}_PAUSED`;
    if (o.kind !== 'ad' || !review) return o.kind === 'ad' ? 'PENDING_REVIEW' : 'ACTIVE';
    return 'approve' in review ? 'ACTIVE' : 'DISAPPROVED';
  }

  async function graph(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    params: URLSearchParams,
  ): Promise<void> {
    const line = `${req.method} ${path}`;
    fake.requests.push(line);
    const failure = failures.find((f) => f.match.test(line));
    if (failure) {
      if (--failure.times <= 0) failures.splice(failures.indexOf(failure), 1);
      if (failure.failure === 'rate_limit')
        return error(res, 400, 80004, 'There have been too many calls to this ad-account. Wait a bit and try again.');
      if (failure.failure === 'lost_response') {
        // Meta does the work; the answer never arrives (as when the service dies before reading it).
        await handle(req, res, path, params, parts(path), () => undefined);
        return void res.destroy();
      }
      if (failure.failure === 'token_expired') {
        tokens.clear();
        return error(res, 400, 190, 'Error validating access token: Session has expired.');
      }
      return void res.writeHead(500).end('{}');
    }
    if (!tokens.has(params.get('access_token') ?? ''))
      return error(res, 400, 190, 'Invalid OAuth access token - Cannot parse access token');
    return handle(req, res, path, params, parts(path), (body) => ok(res, body));
  }

  const parts = (path: string) => path.split('/').filter(Boolean);

  /** A Graph request with a valid token; `answer` sends the success body (a lost response drops it). */
  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    params: URLSearchParams,
    parts: string[],
    answer: (body: unknown) => void,
  ): Promise<void> {
    const ok = (_res: ServerResponse, body: unknown) => answer(body);
    if (path === '/me/permissions')
      return ok(res, {
        data: [
          { permission: 'ads_management', status: 'granted' },
          { permission: 'ads_read', status: 'granted' },
        ],
      });
    if (path === '/me/adaccounts') return ok(res, { data: [{ id: adAccount, name: 'Acme ads', currency: 'USD' }] });
    if (path === '/me/accounts') return ok(res, { data: [{ id: '555000111', name: 'Acme page' }] });
    if (req.method === 'POST' && parts.length === 2 && EDGES[parts[1]]) {
      if (parts[0] !== adAccount) return refuse(res, `unknown ad account ${parts[0]}`);
      const kind = EDGES[parts[1]];
      const missing = REQUIRED[kind].filter((f) => !params.get(f));
      if (missing.length) return refuse(res, `${kind} without ${missing.join(', ')}`);
      const unknown = [...params.keys()].filter(
        (k) => k !== 'access_token' && !REQUIRED[kind].includes(k) && !OPTIONAL[kind].includes(k),
      );
      if (unknown.length) return refuse(res, `${kind} with unknown ${unknown.join(', ')}`);
      if (params.has('status') && params.get('status') !== 'PAUSED')
        return refuse(res, `${kind} created ${params.get('status')}, not PAUSED`);
      const fields = Object.fromEntries(
        [...params].filter(([k]) => k !== 'access_token').map(([k, v]) => [k, /^[[{]/.test(v) ? JSON.parse(v) : v]),
      );
      if (kind === 'adset' && !/^\d+$/.test(String(fields.daily_budget)))
        return refuse(res, 'daily_budget not an integer of minor units');
      const targeting = kind === 'adset' ? targetingProblem(fields.targeting) : undefined;
      if (targeting) return refuse(res, targeting);
      const object = { id: String(++seq), kind, status: String(fields.status ?? 'ACTIVE'), fields };
      fake.objects.push(object);
      return ok(res, { id: object.id });
    }
    if (req.method === 'GET' && path === '/search') {
      if (params.get('type') !== 'adinterest' || !params.get('q'))
        return refuse(res, `search without type=adinterest and q`);
      const q = (params.get('q') as string).toLowerCase();
      return ok(res, {
        data: FAKE_INTERESTS.filter((i) => i.name.toLowerCase().includes(q)).map((i) => ({
          ...i,
          audience_size_lower_bound: 1000000,
          audience_size_upper_bound: 2000000,
          path: ['Interests', i.name],
        })),
      });
    }
    if (req.method === 'GET' && parts.length === 2 && EDGES[parts[1]]) {
      if (parts[0] !== adAccount) return refuse(res, `unknown ad account ${parts[0]}`);
      const filtering = JSON.parse(params.get('filtering') ?? '[]') as Array<{
        field: string;
        operator: string;
        value: unknown;
      }>;
      const unknown = [...params.keys()].filter((k) => !['access_token', 'fields', 'filtering', 'limit'].includes(k));
      if (unknown.length || filtering.some((f) => f.field !== 'name' || f.operator !== 'EQUAL'))
        return refuse(res, `list ${parts[1]} with ${unknown.join(', ') || JSON.stringify(filtering)}`);
      const kind = EDGES[parts[1]];
      const hits = fake.objects.filter((o) => o.kind === kind && filtering.every((f) => o.fields.name === f.value));
      return ok(res, { data: hits.map((o) => ({ id: o.id, name: o.fields.name })) });
    }
    const object = fake.objects.find((o) => o.id === parts[0]);
    if (!object)
      return error(
        res,
        400,
        100,
        `Unsupported request. Object with ID '${parts[0]}' does not exist`,
        'GraphMethodException',
      );
    if (req.method === 'POST' && parts.length === 1) {
      const change = Object.fromEntries(
        [...params].filter(([k]) => k !== 'access_token').map(([k, v]) => [k, /^[[{]/.test(v) ? JSON.parse(v) : v]),
      );
      const unknown = Object.keys(change).filter((k) => !EDITABLE[object.kind].includes(k));
      if (unknown.length || !Object.keys(change).length)
        return refuse(res, `edit of ${object.kind} with ${unknown.join(', ') || 'nothing'}`);
      if (change.daily_budget !== undefined && !/^\d+$/.test(String(change.daily_budget)))
        return refuse(res, 'daily_budget not an integer of minor units');
      const targeting = change.targeting !== undefined ? targetingProblem(change.targeting) : undefined;
      if (targeting) return refuse(res, targeting);
      const creative = change.creative as { creative_id?: string } | undefined;
      if (creative && !fake.objects.some((o) => o.kind === 'adcreative' && o.id === creative.creative_id))
        return refuse(res, `unknown creative ${creative.creative_id}`);
      const { status, ...fields } = change;
      Object.assign(object.fields, fields);
      object.status = typeof status === 'string' ? status : object.status;
      fake.edits.push({ id: object.id, change });
      return ok(res, { success: true });
    }
    if (parts[1] === 'insights')
      return ok(res, { data: insights ? [{ ...insights, date_start: '2030-03-01', date_stop: '2030-03-02' }] : [] });
    const status = effective(object);
    const disapproved = status === 'DISAPPROVED' && review && 'disapprove' in review ? review.disapprove : undefined;
    return ok(res, {
      id: object.id,
      status: object.status,
      effective_status: status,
      ...(disapproved && {
        issues_info: [{ error_code: 1487, error_summary: 'Ad disapproved', error_message: disapproved, level: 'AD' }],
        ad_review_feedback: { global: { 'Advertising Policies': disapproved } },
      }),
    });
  }

  function token(req: IncomingMessage, res: ServerResponse, q: URLSearchParams): void {
    const code = codes.get(q.get('code') ?? '');
    if (q.get('client_id') !== appId || q.get('client_secret') !== appSecret)
      return error(res, 400, 1, 'Error validating client secret.');
    if (!code || code.used) return error(res, 400, 100, 'This authorization code has been used.');
    code.used = true;
    if (q.get('redirect_uri') !== code.redirectUri) return error(res, 400, 100, 'redirect_uri is not identical');
    if (
      createHash('sha256')
        .update(q.get('code_verifier') ?? '')
        .digest('base64url') !== code.challenge
    )
      return error(res, 400, 100, 'Invalid code verifier');
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
      if (req.method === 'POST')
        for (const [k, v] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) params.set(k, v);
      const path = url.pathname.replace(/^\/v21\.0/, '');
      const handled =
        path === '/oauth/access_token' ? Promise.resolve(token(req, res, params)) : graph(req, res, path, params);
      handled.catch((e: Error) => res.writeHead(500).end(JSON.stringify({ error: { message: e.message } })));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    ...fake,
    url,
    adAccount,
    env: () => ({
      META_APP_ID: appId,
      META_APP_SECRET: appSecret,
      META_AUTHORIZATION_URL: `${url}/v21.0/dialog/oauth`,
      META_TOKEN_URL: `${url}/v21.0/oauth/access_token`,
      META_GRAPH_API_BASE: `${url}/v21.0`,
    }),
    async consent(authorizationUrl) {
      const q = new URL(authorizationUrl).searchParams;
      if (
        q.get('client_id') !== appId ||
        q.get('redirect_uri') !== options.redirectUri() ||
        q.get('code_challenge_method') !== 'S256'
      )
        throw new Error(`bad dialog request ${authorizationUrl}`);
      if (q.get('scope') !== 'ads_management,ads_read') throw new Error(`unexpected scope ${q.get('scope')}`);
      const code = randomBytes(24).toString('base64url');
      codes.set(code, {
        challenge: q.get('code_challenge') as string,
        redirectUri: q.get('redirect_uri') as string,
        used: false,
      });
      const back = new URL(q.get('redirect_uri') as string);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') as string);
      return back.href;
    },
    review: (decision) => {
      review = decision === 'pending' ? undefined : decision;
    },
    deliver: (i) => {
      insights = i;
    },
    failNext: (match, failure, times = 1) => {
      failures.push({ match, failure, times });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
