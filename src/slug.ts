// URL slugs for blog posts and workspace blogs. Titles and names are written in every language, so
// letters are transliterated ("Straße in Zürich" → strasse-in-zuerich, "Крылья" → krylya) by a kept
// library rather than dropped; what still has no Latin spelling falls back to `fallback`.
import slugifyText from '@sindresorhus/slugify';

/** Lower-case ASCII words joined by hyphens, cut at a hyphen within `maxLength`. */
export function slugify(text: string, maxLength: number, fallback: string): string {
  const whole = slugifyText(text, { decamelize: false });
  if (whole.length <= maxLength) return whole || fallback;
  const cut = whole.slice(0, maxLength);
  const lastHyphen = whole[maxLength] === '-' ? maxLength : cut.lastIndexOf('-');
  return (lastHyphen > 0 ? cut.slice(0, lastHyphen) : cut).replace(/-+$/, '') || fallback;
}
