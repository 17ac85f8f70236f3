// A campaign as a caller writes it, checked beyond what the contract's schema can say: ages in order,
// the end after the start, creatives within Meta's text limits.
import type { AdCampaignFields, AdCreative, AdTargeting } from './ad-campaigns-data.ts';
import { ApiError } from '../../errors.ts';

export interface AdCampaignInput {
  name: string;
  objective: string;
  daily_budget: { amount_minor: number; currency: string };
  start_at: string;
  end_at?: string | null;
  targeting: AdTargeting;
  creatives: AdCreative[];
}

/** Meta's limits for link ads, in characters. */
export const TEXT_LIMITS = { headline: 40, primary_text: 125, description: 30 } as const;

export function campaignFields(input: AdCampaignInput): AdCampaignFields {
  const errors: Array<{ field: string; code: string; message: string }> = [];
  const startAt = new Date(input.start_at);
  const endAt = input.end_at ? new Date(input.end_at) : null;
  const { age_min: ageMin, age_max: ageMax, countries, interests = [] } = input.targeting;
  for (const [field, age] of [
    ['age_min', ageMin],
    ['age_max', ageMax],
  ] as const) {
    if (age < 18 || age > 65)
      errors.push({ field: `targeting.${field}`, code: 'out_of_range', message: 'between 18 and 65' });
  }
  if (ageMin > ageMax)
    errors.push({ field: 'targeting.age_min', code: 'out_of_order', message: 'age_min must not exceed age_max' });
  if (new Set(countries).size !== countries.length || countries.length > 25)
    errors.push({ field: 'targeting.countries', code: 'invalid', message: 'at most 25, each once' });
  if (interests.length > 10 || interests.some((i) => !i.trim() || i.length > 100))
    errors.push({ field: 'targeting.interests', code: 'invalid', message: 'at most 10, each 1 to 100 characters' });
  if (!input.name.trim()) errors.push({ field: 'name', code: 'required', message: 'a name' });
  if (endAt && endAt.getTime() <= startAt.getTime())
    errors.push({ field: 'end_at', code: 'out_of_order', message: 'end_at must come after start_at' });
  if (input.creatives.length > 5) errors.push({ field: 'creatives', code: 'too_many', message: 'at most 5' });
  input.creatives.forEach((c, i) => {
    if (!c.headline.trim() || !c.primary_text.trim())
      errors.push({
        field: `creatives[${i}]`,
        code: 'required',
        message: 'headline and primary_text must not be empty',
      });
    for (const [key, limit] of Object.entries(TEXT_LIMITS)) {
      const text = c[key as keyof typeof TEXT_LIMITS];
      if (text && [...text].length > limit)
        errors.push({ field: `creatives[${i}].${key}`, code: 'too_long', message: `at most ${limit} characters` });
    }
  });
  if (errors.length)
    throw new ApiError(
      'validation_failed',
      `The campaign is not valid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`,
      { errors },
    );
  return {
    name: input.name,
    objective: input.objective,
    daily_budget_minor: input.daily_budget.amount_minor,
    currency: input.daily_budget.currency,
    start_at: startAt,
    end_at: endAt,
    targeting: input.targeting,
    creatives: input.creatives,
  };
}

/** The stored fields with a patch applied (fields given replace the stored ones). */
export function patchedInput(current: AdCampaignFields, patch: Partial<AdCampaignInput>): AdCampaignInput {
  return {
    name: patch.name ?? current.name,
    objective: patch.objective ?? current.objective,
    daily_budget: patch.daily_budget ?? { amount_minor: current.daily_budget_minor, currency: current.currency },
    start_at: patch.start_at ?? current.start_at.toISOString(),
    end_at: patch.end_at !== undefined ? patch.end_at : (current.end_at?.toISOString() ?? null),
    targeting: patch.targeting ?? current.targeting,
    creatives: patch.creatives ?? current.creatives,
  };
}
