// Sandbox mode's ads platform, part three: Meta's targeting search (GET search?type=adinterest) over a
// small built-in list of interests, so a sandbox launch resolves interest names to ids as a live one does,
// and the check that an ad set's flexible_spec names only interests the platform knows.

/** A few of Meta's interests, with ids in Meta's style. */
export const SANDBOX_INTERESTS: ReadonlyArray<{ id: string; name: string; audience_size: number }> = [
  { id: '6003020834693', name: 'Marketing automation', audience_size: 41_000_000 },
  { id: '6003127206524', name: 'Digital marketing', audience_size: 310_000_000 },
  { id: '6003076016339', name: 'Email marketing', audience_size: 98_000_000 },
  { id: '6003371567474', name: 'Small business', audience_size: 265_000_000 },
  { id: '6003353550130', name: 'Entrepreneurship', audience_size: 420_000_000 },
  { id: '6003402305839', name: 'Software', audience_size: 150_000_000 },
  { id: '6003349175527', name: 'Startup company', audience_size: 120_000_000 },
  { id: '6003384248805', name: 'Fitness and wellness', audience_size: 700_000_000 },
  { id: '6003107902433', name: 'Online advertising', audience_size: 180_000_000 },
  { id: '6003139266461', name: 'Technology', audience_size: 900_000_000 },
];

/** Meta's search answer: interests whose name contains the query, any case. */
export function searchInterests(
  q: string,
  limit: number,
): Array<{
  id: string;
  name: string;
  audience_size_lower_bound: number;
  audience_size_upper_bound: number;
  path: string[];
}> {
  const needle = q.trim().toLowerCase();
  if (!needle) return [];
  return SANDBOX_INTERESTS.filter((i) => i.name.toLowerCase().includes(needle))
    .slice(0, limit)
    .map((i) => ({
      id: i.id,
      name: i.name,
      audience_size_lower_bound: Math.round(i.audience_size * 0.9),
      audience_size_upper_bound: Math.round(i.audience_size * 1.1),
      path: ['Interests', i.name],
    }));
}

/** Why a targeting spec's interests are refused (an unknown id), or undefined. */
export function unknownInterest(targeting: unknown): string | undefined {
  const groups = (targeting as { flexible_spec?: unknown } | undefined)?.flexible_spec;
  if (groups === undefined) return undefined;
  if (!Array.isArray(groups)) return 'flexible_spec must be an array';
  for (const group of groups as Array<{ interests?: Array<{ id?: unknown }> }>) {
    for (const interest of group?.interests ?? []) {
      if (!SANDBOX_INTERESTS.some((i) => i.id === interest?.id))
        return `interest ${String(interest?.id)} does not exist`;
    }
  }
  return undefined;
}
