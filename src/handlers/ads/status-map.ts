// From what Meta reports to what a campaign here is: the ads' effective_status (the object's own status
// combined with its parents' and the review's), the disapproval reason, and spend in minor units.
import type { AdCampaignStatus } from './ad-campaigns-data.ts';

const REVIEW = new Set(['PENDING_REVIEW', 'IN_PROCESS', 'PREAPPROVED', 'PENDING_BILLING_INFO']);
const PAUSED = new Set(['PAUSED', 'CAMPAIGN_PAUSED', 'ADSET_PAUSED']);
const ENDED = new Set(['ARCHIVED', 'DELETED']);

/** The campaign's status from its ads' effective statuses: a disapproval wins, then review, then delivery. */
export function statusFromAds(effective: string[], endAt: Date | null, now: Date): AdCampaignStatus {
  if (effective.includes('DISAPPROVED')) return 'disapproved';
  if (effective.some((s) => REVIEW.has(s))) return 'pending_review';
  if (effective.some((s) => s === 'ACTIVE' || s === 'WITH_ISSUES'))
    return endAt && endAt.getTime() <= now.getTime() ? 'completed' : 'active';
  if (effective.length && effective.every((s) => ENDED.has(s))) return 'archived';
  if (effective.some((s) => PAUSED.has(s))) return endAt && endAt.getTime() <= now.getTime() ? 'completed' : 'paused';
  return 'pending_review';
}

/** The reason an ad gives for its disapproval (or its issues): issues_info, else ad_review_feedback. */
export function reasonFromAd(ad: Record<string, unknown>): string | null {
  const issues = Array.isArray(ad.issues_info)
    ? (ad.issues_info as Array<{ error_message?: unknown; error_summary?: unknown }>)
    : [];
  const fromIssues = issues
    .map((i) =>
      typeof i.error_message === 'string'
        ? i.error_message
        : typeof i.error_summary === 'string'
          ? i.error_summary
          : '',
    )
    .filter(Boolean);
  if (fromIssues.length) return fromIssues.join('; ').slice(0, 1000);
  const feedback = (ad.ad_review_feedback as { global?: Record<string, unknown> } | undefined)?.global;
  if (feedback && typeof feedback === 'object')
    return (
      Object.entries(feedback)
        .map(([k, v]) => `${k}: ${String(v)}`)
        .join('; ')
        .slice(0, 1000) || null
    );
  return null;
}

/** Minor units of a currency (2 for USD, 0 for JPY), as ISO 4217 has them. */
export function currencyExponent(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** "12.34" USD -> 1234, without going through a float. */
export function decimalToMinor(amount: string, currency: string): number {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) return 0;
  const exponent = currencyExponent(currency);
  const fraction = (match[2] ?? '').padEnd(exponent, '0').slice(0, exponent);
  return Number(match[1]) * 10 ** exponent + (fraction ? Number(fraction) : 0);
}
