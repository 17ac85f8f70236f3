// Sandbox mode's ads platform, part two: the Graph (Marketing) API endpoints a launch uses, as Meta
// answers them — the same code paths run against Meta in live mode. It checks the token (an ads grant
// of this sandbox), the ad account and the fields each object needs, records what would have been
// created (sandbox_ad_objects), reports statuses as Meta computes effective_status from the object and
// its parents, and delivers nothing: insights are always empty. Errors have Graph's shape (meta-graph-wire.ts);
// the objects' rules are in meta-ad-rules.ts.
import { createHash } from 'node:crypto';
import type { Hono } from 'hono';
import {
  findSandboxTokenByHash,
  revokeSandboxGrant,
  type SandboxGrantRow,
} from '../handlers/connectors/sandbox-data.ts';
import {
  findSandboxAdObjectByGrant,
  findSandboxAdObjectsByName,
  insertSandboxAdObject,
  setSandboxAdStatusByGrant,
  updateSandboxAdFieldsByGrant,
  type SandboxAdKind,
  type SandboxAdObjectRow,
} from './sandbox-ads-data.ts';
import { searchInterests, unknownInterest } from './meta-ads-targeting.ts';
import { graphError, missingObject, params, parseJson } from './meta-graph-wire.ts';
import { editable, edges, fieldsOf, parentField, required, STATUSES } from './meta-ad-rules.ts';
import type { Deps } from '../deps.ts';
import { META_SANDBOX_APP_ID, META_SANDBOX_PREFIX } from '../handlers/connectors/meta/graph-client.ts';

const hash = (value: string) => createHash('sha256').update(value).digest('hex');

/** The one ad account of a sandbox grant: stable, numeric like Meta's. */
export const sandboxAdAccount = (grantId: string) => `act_${parseInt(hash(grantId).slice(0, 12), 16)}`;
export const sandboxPageId = (grantId: string) => String(parseInt(hash(`page:${grantId}`).slice(0, 12), 16));

export function metaAdsApiRoutes(app: Hono<any>, deps: Deps): void {
  const base = META_SANDBOX_PREFIX;
  const now = () => deps.clock.now();

  /** The grant behind the request's access_token, or the OAuthException 190 Meta answers. */
  async function authorise(p: URLSearchParams): Promise<{ grant?: SandboxGrantRow; error?: Response }> {
    const found = await findSandboxTokenByHash(deps.db.sql, hash(p.get('access_token') ?? ''));
    const live =
      found &&
      found.kind === 'access' &&
      found.grant.client_id === META_SANDBOX_APP_ID &&
      !found.revoked_at &&
      (!found.expires_at || found.expires_at.getTime() > now().getTime());
    if (!live)
      return {
        error: graphError(400, 'Error validating access token: The session is invalid.', 'OAuthException', 190),
      };
    return { grant: found.grant };
  }

  app.get(`${base}/me/permissions`, async (c) => {
    const { grant, error } = await authorise(await params(c));
    if (!grant) return error;
    return c.json({ data: grant.scopes.map((permission) => ({ permission, status: 'granted' })) });
  });
  app.delete(`${base}/me/permissions`, async (c) => {
    const { grant, error } = await authorise(await params(c));
    if (!grant) return error;
    await revokeSandboxGrant(deps.db.sql, grant.id, now());
    return c.json({ success: true });
  });
  app.get(`${base}/me/adaccounts`, async (c) => {
    const { grant, error } = await authorise(await params(c));
    if (!grant) return error;
    return c.json({
      data: [{ id: sandboxAdAccount(grant.id), name: `Sandbox ads of ${grant.account_email}`, currency: 'USD' }],
    });
  });
  app.get(`${base}/search`, async (c) => {
    const p = await params(c);
    const { grant, error } = await authorise(p);
    if (!grant) return error;
    if (p.get('type') !== 'adinterest')
      return graphError(400, 'Invalid parameter: type (the sandbox searches adinterest only).', 'OAuthException', 100);
    return c.json({ data: searchInterests(p.get('q') ?? '', Math.min(Number(p.get('limit')) || 25, 100)) });
  });
  app.get(`${base}/me/accounts`, async (c) => {
    const { grant, error } = await authorise(await params(c));
    if (!grant) return error;
    return c.json({ data: [{ id: sandboxPageId(grant.id), name: 'Sandbox page' }] });
  });

  app.post(`${base}/:account/:edge`, async (c) => {
    const p = await params(c);
    const { grant, error } = await authorise(p);
    if (!grant) return error;
    const kind = edges[c.req.param('edge')];
    if (!kind || c.req.param('account') !== sandboxAdAccount(grant.id))
      return graphError(400, 'Unsupported post request.', 'GraphMethodException', 100);
    const missing = required[kind].filter((f) => !p.get(f));
    if (missing.length)
      return graphError(400, `Invalid parameter: ${missing.join(', ')} is required.`, 'OAuthException', 100);
    const status = p.get('status') ?? 'ACTIVE';
    if (!STATUSES.includes(status)) return graphError(400, 'Invalid parameter: status.', 'OAuthException', 100);
    const fields = fieldsOf(p);
    if (kind === 'adset' && !/^\d+$/.test(p.get('daily_budget') ?? ''))
      return graphError(
        400,
        'Invalid parameter: daily_budget must be an integer in minor units.',
        'OAuthException',
        100,
      );
    const unknown = kind === 'adset' ? unknownInterest(fields.targeting) : undefined;
    if (unknown) return graphError(400, `Invalid parameter: targeting: ${unknown}.`, 'OAuthException', 100);
    const parent = parentField[kind];
    if (
      parent &&
      (await findSandboxAdObjectByGrant(deps.db.sql, grant.id, p.get(parent.field) as string))?.kind !== parent.kind
    ) {
      return graphError(400, `Invalid parameter: ${parent.field} does not exist.`, 'OAuthException', 100);
    }
    const creative = kind === 'ad' ? (fields.creative as { creative_id?: string }) : undefined;
    if (
      creative &&
      (await findSandboxAdObjectByGrant(deps.db.sql, grant.id, String(creative.creative_id)))?.kind !== 'adcreative'
    ) {
      return graphError(400, 'Invalid parameter: creative does not exist.', 'OAuthException', 100);
    }
    const row = await insertSandboxAdObject(deps.db.sql, grant.workspace_id, deps.ids, {
      grantId: grant.id,
      kind,
      parentId: parent ? p.get(parent.field) : null,
      status,
      fields,
      now: now(),
    });
    return c.json({ id: row.id });
  });

  app.post(`${base}/:id`, async (c) => {
    const p = await params(c);
    const { grant, error } = await authorise(p);
    if (!grant) return error;
    const row = await findSandboxAdObjectByGrant(deps.db.sql, grant.id, c.req.param('id'));
    if (!row) return missingObject(c.req.param('id'));
    const refused = await editRefusal(grant.id, row.kind, p);
    if (refused) return refused;
    const { status, ...fields } = fieldsOf(p);
    if (Object.keys(fields).length) await updateSandboxAdFieldsByGrant(deps.db.sql, grant.id, row.id, fields, now());
    if (typeof status === 'string') await setSandboxAdStatusByGrant(deps.db.sql, grant.id, row.id, status, now());
    return c.json({ success: true });
  });

  /** Why an edit is refused: a field this kind cannot change, a bad status or budget, an unknown creative or interest. */
  async function editRefusal(grantId: string, kind: SandboxAdKind, p: URLSearchParams): Promise<Response | undefined> {
    const fields = fieldsOf(p);
    const extra = Object.keys(fields).filter((k) => !editable[kind].includes(k));
    if (extra.length || !Object.keys(fields).length)
      return graphError(400, `Invalid parameter: ${extra.join(', ') || 'nothing to change'}.`, 'OAuthException', 100);
    if (fields.status !== undefined && !STATUSES.includes(String(fields.status)))
      return graphError(400, 'Invalid parameter: status.', 'OAuthException', 100);
    if (fields.daily_budget !== undefined && !/^\d+$/.test(String(fields.daily_budget)))
      return graphError(
        400,
        'Invalid parameter: daily_budget must be an integer in minor units.',
        'OAuthException',
        100,
      );
    const unknown = fields.targeting !== undefined ? unknownInterest(fields.targeting) : undefined;
    if (unknown) return graphError(400, `Invalid parameter: targeting: ${unknown}.`, 'OAuthException', 100);
    const creative = fields.creative as { creative_id?: string } | undefined;
    if (
      creative &&
      (await findSandboxAdObjectByGrant(deps.db.sql, grantId, String(creative.creative_id)))?.kind !== 'adcreative'
    )
      return graphError(400, 'Invalid parameter: creative does not exist.', 'OAuthException', 100);
    return undefined;
  }

  app.get(`${base}/:id/insights`, async (c) => {
    const { grant, error } = await authorise(await params(c));
    if (!grant) return error;
    if (!(await findSandboxAdObjectByGrant(deps.db.sql, grant.id, c.req.param('id'))))
      return missingObject(c.req.param('id'));
    // The sandbox delivers nothing, so Meta's answer for an object without delivery: no rows.
    return c.json({ data: [] });
  });

  // Graph's list edges, filtered by name: how a launch finds an object it created before a crash.
  app.get(`${base}/:account/:edge`, async (c) => {
    const p = await params(c);
    const { grant, error } = await authorise(p);
    if (!grant) return error;
    const kind = edges[c.req.param('edge')];
    if (!kind || c.req.param('account') !== sandboxAdAccount(grant.id))
      return graphError(400, 'Unsupported get request.', 'GraphMethodException', 100);
    const filter = parseJson(p.get('filtering') ?? '[]') as
      | Array<{ field?: unknown; operator?: unknown; value?: unknown }>
      | undefined;
    const byName =
      Array.isArray(filter) &&
      filter.length === 1 &&
      filter[0].field === 'name' &&
      filter[0].operator === 'EQUAL' &&
      typeof filter[0].value === 'string'
        ? filter[0].value
        : undefined;
    if (!byName)
      return graphError(
        400,
        'Invalid parameter: filtering (the sandbox filters by name EQUAL only).',
        'OAuthException',
        100,
      );
    const rows = await findSandboxAdObjectsByName(deps.db.sql, grant.id, kind, byName);
    return c.json({ data: rows.map((r) => ({ id: r.id, name: r.fields.name })) });
  });

  app.get(`${base}/:id`, async (c) => {
    const { grant, error } = await authorise(await params(c));
    if (!grant) return error;
    const row = await findSandboxAdObjectByGrant(deps.db.sql, grant.id, c.req.param('id'));
    if (!row) return missingObject(c.req.param('id'));
    return c.json({
      id: row.id,
      name: row.fields.name,
      status: row.status,
      effective_status: await effectiveStatus(grant.id, row),
      issues_info: [],
    });
  });

  /** As Meta computes it: the object's own status unless a parent is paused. Nothing needs review here. */
  async function effectiveStatus(grantId: string, row: SandboxAdObjectRow): Promise<string> {
    if (row.status !== 'ACTIVE') return row.status;
    let parentId = row.parent_id;
    while (parentId) {
      const parent = await findSandboxAdObjectByGrant(deps.db.sql, grantId, parentId);
      if (!parent) break;
      if (parent.status !== 'ACTIVE') return `${parent.kind === 'campaign' ? 'CAMPAIGN' : 'ADSET'}_PAUSED`;
      parentId = parent.parent_id;
    }
    return 'ACTIVE';
  }
}

export const metaAdsApiPaths = [
  { path: `${META_SANDBOX_PREFIX}/me/permissions`, methods: ['GET', 'DELETE'] },
  { path: `${META_SANDBOX_PREFIX}/me/adaccounts`, methods: ['GET'] },
  { path: `${META_SANDBOX_PREFIX}/me/accounts`, methods: ['GET'] },
  { path: `${META_SANDBOX_PREFIX}/search`, methods: ['GET'] },
  { path: `${META_SANDBOX_PREFIX}/{account}/{edge}`, methods: ['GET', 'POST'] },
  { path: `${META_SANDBOX_PREFIX}/{id}`, methods: ['GET', 'POST'] },
  { path: `${META_SANDBOX_PREFIX}/{id}/insights`, methods: ['GET'] },
];
