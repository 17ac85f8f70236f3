// Pushes an edit of a paused campaign to the platform objects the launch created, through the same Graph
// adapter: name -> the campaign's name; daily_budget, end_at and targeting -> the ad set; creatives -> new
// ad creatives, the existing ads pointed at them (a new ad for a creative added, extra ads archived).
// Interests are resolved before anything is sent, so an unknown one changes nothing at the platform.
import type { AdCampaignFields, AdCampaignRow, PlatformIds } from './ad-campaigns-data.ts';
import type { Deps } from '../../deps.ts';
import { ApiError } from '../../errors.ts';
import { graphPost } from '../connectors/meta/graph-client.ts';
import { creativeFields, platformTag, resolveInterests, targetingSpec } from './platform-fields.ts';
import { platformSession, type PlatformSession } from './platform.ts';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The platform ids after the edit (creatives and ads may be new). */
export async function pushEdit(deps: Deps, current: AdCampaignRow, next: AdCampaignFields): Promise<PlatformIds> {
  const session = await platformSession(deps, current);
  const ids = { ...current.platform_ids };
  const post = (id: string, fields: Record<string, unknown>) =>
    session.call((token) => graphPost(deps.connectors.meta, token, id, fields));
  const targetingChanged = !same(current.targeting, next.targeting);
  const interests = targetingChanged ? await resolveInterests(deps, session, next.targeting.interests) : [];
  if (next.name !== current.name) await post(ids.campaign, { name: platformTag({ id: current.id, name: next.name }) });
  const adSet: Record<string, unknown> = {
    ...(next.daily_budget_minor !== current.daily_budget_minor && { daily_budget: String(next.daily_budget_minor) }),
    ...(next.end_at && next.end_at.getTime() !== current.end_at?.getTime() && { end_time: next.end_at.toISOString() }),
    ...(targetingChanged && { targeting: targetingSpec(next.targeting, interests) }),
  };
  if (Object.keys(adSet).length) await post(ids.ad_set, adSet);
  if (!same(current.creatives, next.creatives)) await replaceCreatives(deps, session, current, next, ids);
  return ids;
}

async function replaceCreatives(
  deps: Deps,
  session: PlatformSession,
  current: AdCampaignRow,
  next: AdCampaignFields,
  ids: PlatformIds,
): Promise<void> {
  const account = current.ad_account_id ?? session.connector.account_email;
  if (!account || !ids.page)
    throw new ApiError(
      'ad_campaign_state_conflict',
      `Campaign ${current.id} has no ad account or page at the platform; its creatives cannot be replaced.`,
    );
  const meta = deps.connectors.meta;
  const create = async (edge: string, fields: Record<string, unknown>) => {
    const created = await session.call((token) => graphPost(meta, token, `${account}/${edge}`, fields));
    if (typeof created.id !== 'string')
      throw new ApiError('provider_unavailable', `The ads platform created an object of ${edge} without an id.`);
    return created.id;
  };
  const tag = platformTag({ id: current.id, name: next.name });
  for (const [i, c] of next.creatives.entries()) {
    const n = i + 1;
    const creative = await create('adcreatives', creativeFields(c, `${tag} #${n}`, ids.page));
    if (ids[`ad_${n}`]) {
      await session.call((token) => graphPost(meta, token, ids[`ad_${n}`], { creative: { creative_id: creative } }));
    } else {
      // Created paused like every ad, then active: the campaign stays paused until resume_ad_campaign.
      ids[`ad_${n}`] = await create('ads', {
        name: `${tag} #${n}`,
        adset_id: ids.ad_set,
        creative: { creative_id: creative },
        status: 'PAUSED',
      });
      await session.call((token) => graphPost(meta, token, ids[`ad_${n}`], { status: 'ACTIVE' }));
    }
    ids[`creative_${n}`] = creative;
  }
  for (let n = next.creatives.length + 1; ids[`ad_${n}`]; n++) {
    await session.call((token) => graphPost(meta, token, ids[`ad_${n}`], { status: 'ARCHIVED' }));
    delete ids[`ad_${n}`];
    delete ids[`creative_${n}`];
  }
}
