// The rules of the sandbox's ad objects (meta-ads-api.ts), as Meta applies them.
import type { SandboxAdKind } from './sandbox-ads-data.ts';
import { parseJson } from './meta-graph-wire.ts';

// What each object must be given, and which parent it hangs from.
export const required: Record<SandboxAdKind, string[]> = {
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
export const edges: Record<string, SandboxAdKind> = {
  campaigns: 'campaign',
  adsets: 'adset',
  adcreatives: 'adcreative',
  ads: 'ad',
};
export const parentField: Partial<Record<SandboxAdKind, { field: string; kind: SandboxAdKind }>> = {
  adset: { field: 'campaign_id', kind: 'campaign' },
  ad: { field: 'adset_id', kind: 'adset' },
};
export const STATUSES = ['ACTIVE', 'PAUSED', 'ARCHIVED', 'DELETED'];
// What an edit (POST /<id>) may change, by kind, as Meta allows it on a paused object.
export const editable: Record<SandboxAdKind, string[]> = {
  campaign: ['name', 'status'],
  adset: ['name', 'status', 'daily_budget', 'end_time', 'targeting'],
  adcreative: ['name'],
  ad: ['name', 'status', 'creative'],
};

export const fieldsOf = (p: URLSearchParams) => {
  const fields: Record<string, unknown> = {};
  for (const [k, v] of p)
    if (k !== 'access_token') fields[k] = v.startsWith('{') || v.startsWith('[') ? (parseJson(v) ?? v) : v;
  return fields;
};
