// Deterministic English-like text for the knowledge rows: marketing and sales prose drawn from a word
// list with Zipf-distributed frequencies (a few words everywhere, most words rare), each page leaning
// on one topic's vocabulary, so a query's matches range from most chunks to a handful, as on a real
// site. Seeded, so every run indexes the same text and searches the same queries.

/** mulberry32: small, fast and good enough to vary text; not for anything secret. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return { next, int, pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] };
}

export interface Random {
  /** In [0, 1). */
  next(): number;
  /** In [min, max], both included. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

const FUNCTION_WORDS =
  'the of and to a in for with on is are that your our it by from as at this can be more will you we their every each into across without than when how what so or not all'.split(
    ' ',
  );

// Most frequent first: the rank sets the frequency.
const GENERAL_TEXT = `
team customers data platform work time sales marketing teams business product customer pipeline revenue growth
process tools results support campaign content account leads value strategy companies insights workflow
performance company engagement people project experience analytics goals market quality email channel manage
build track improve plan report dashboard deal contact meeting simple faster better easy real automate connect
integration reporting forecast quarter target budget brand audience segment message conversion funnel trial
onboarding renewal churn retention upsell partner agency enterprise startup founder manager director executive
buyer prospect outreach sequence cadence follow call demo proposal contract invoice pricing discount plan
subscription seat license feature release roadmap feedback survey review rating testimonial case study webinar
event conference podcast newsletter blog article guide template checklist playbook framework benchmark metric
score attribution cohort experiment variant landing page form signup download upgrade checkout cart order
shipment inventory warehouse supplier logistics region territory quota commission incentive bonus payroll hiring
recruiting interview candidate training coaching mentor culture remote office meeting calendar schedule reminder
notification alert mobile desktop browser extension plugin api webhook sync import export spreadsheet database
record field property tag label filter view search query archive backup security privacy compliance consent audit
permission role admin owner member invite approval policy governance risk fraud dispute refund chargeback support
ticket escalation resolution satisfaction loyalty advocacy referral community forum ambassador influencer social
video image design creative copy headline tagline slogan story narrative positioning persona journey touchpoint
lifecycle nurture scoring routing assignment handoff territory whitespace expansion retention margin efficiency
productivity visibility alignment collaboration transparency accountability ownership momentum velocity scale
`;
const GENERAL = [...new Set(GENERAL_TEXT.trim().split(/\s+/))];

export const TOPICS: readonly (readonly string[])[] = [
  ['webhook', 'signature', 'retry', 'payload', 'endpoint', 'delivery', 'idempotency'],
  ['pricing', 'tier', 'annual', 'monthly', 'discount', 'seats', 'billing'],
  ['seo', 'keyword', 'ranking', 'backlink', 'crawl', 'sitemap', 'snippet'],
  ['newsletter', 'subscriber', 'open', 'unsubscribe', 'deliverability', 'bounce', 'inbox'],
  ['lead', 'scoring', 'qualification', 'mql', 'sql', 'handoff', 'threshold'],
  ['onboarding', 'activation', 'tutorial', 'checklist', 'milestone', 'adoption', 'tooltip'],
  ['security', 'encryption', 'sso', 'saml', 'audit', 'soc', 'penetration'],
  ['forecast', 'quota', 'commit', 'pipeline', 'coverage', 'slippage', 'accuracy'],
  ['ecommerce', 'cart', 'abandonment', 'checkout', 'coupon', 'shipping', 'returns'],
  ['podcast', 'episode', 'guest', 'host', 'listener', 'transcript', 'microphone'],
  ['hiring', 'recruiter', 'interview', 'offer', 'candidate', 'referral', 'onboard'],
  ['gdpr', 'consent', 'cookie', 'controller', 'processor', 'erasure', 'retention'],
  ['attribution', 'touchpoint', 'multitouch', 'utm', 'campaign', 'channel', 'credit'],
  ['churn', 'renewal', 'health', 'expansion', 'nps', 'detractor', 'advocate'],
  ['linkedin', 'social', 'post', 'hashtag', 'follower', 'influencer', 'reach'],
  ['integration', 'salesforce', 'hubspot', 'zapier', 'slack', 'connector', 'oauth'],
  ['webinar', 'registration', 'speaker', 'replay', 'attendee', 'agenda', 'panel'],
  ['dashboard', 'chart', 'widget', 'filter', 'drilldown', 'export', 'refresh'],
  ['contract', 'signature', 'clause', 'renewal', 'legal', 'redline', 'procurement'],
  ['mobile', 'app', 'push', 'ios', 'android', 'offline', 'notification'],
  ['partner', 'reseller', 'affiliate', 'commission', 'referral', 'marketplace', 'cobranded'],
  ['experiment', 'variant', 'hypothesis', 'significance', 'sample', 'uplift', 'control'],
  ['inventory', 'warehouse', 'supplier', 'stock', 'reorder', 'fulfilment', 'barcode'],
  ['video', 'thumbnail', 'caption', 'editing', 'storyboard', 'animation', 'voiceover'],
];

// Queries of one to three words, cycled: frequent and rare general words, topic words, pairs within a
// topic and across topics (websearch_to_tsquery joins words with AND), a quoted phrase and an `or`.
export const QUERIES: readonly string[] = [
  'pipeline',
  'webhook retry',
  'pricing tiers annual',
  'customer onboarding',
  'gdpr consent',
  'forecast accuracy',
  'ambassador',
  'cart abandonment coupon',
  'sso saml',
  'lead scoring threshold',
  'podcast guest',
  'churn',
  'dashboard export',
  '"case study"',
  'webinar or podcast',
  'velocity',
  'salesforce integration',
  'deliverability bounce inbox',
  'experiment significance',
  'warehouse barcode video',
];

const weights = (count: number, exponent: number) => {
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= count; rank += 1) cumulative.push((total += 1 / rank ** exponent));
  return cumulative.map((w) => w / total);
};
const GENERAL_CUMULATIVE = weights(GENERAL.length, 0.85);

function zipfWord(random: Random): string {
  const u = random.next();
  let lo = 0;
  let hi = GENERAL_CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (GENERAL_CUMULATIVE[mid] < u) lo = mid + 1;
    else hi = mid;
  }
  return GENERAL[lo];
}

/** One sentence of 6–22 words; `topic` words make up about one content word in six. */
export function sentence(random: Random, topic: readonly string[]): string {
  const words: string[] = [];
  const length = random.int(6, 22);
  for (let i = 0; i < length; i += 1) {
    const u = random.next();
    words.push(
      u < 0.38 ? random.pick(FUNCTION_WORDS) : u < 0.48 && topic.length ? random.pick(topic) : zipfWord(random),
    );
  }
  const text = words.join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}${random.next() < 0.1 ? '?' : '.'}`;
}

export function paragraph(random: Random, topic: readonly string[], sentences = random.int(2, 6)): string {
  return Array.from({ length: sentences }, () => sentence(random, topic)).join(' ');
}

/** A heading or title of 2–6 words, capitalised like one. */
export function heading(random: Random, topic: readonly string[]): string {
  const words = Array.from({ length: random.int(2, 6) }, (_, i) =>
    i % 2 || !topic.length ? zipfWord(random) : random.pick(topic),
  );
  return words.map((w) => `${w[0].toUpperCase()}${w.slice(1)}`).join(' ');
}

const FIRST = [
  'Alex',
  'Priya',
  'Jordan',
  'Mei',
  'Samuel',
  'Fatima',
  'Lucas',
  'Ingrid',
  'Tomás',
  'Aisha',
  'Noah',
  'Chloé',
];
const LAST = ['Morgan', 'Okafor', 'Lindqvist', 'Tanaka', 'Reyes', 'Novak', 'Haddad', 'Fischer', 'Campbell', 'Ivanova'];

export function personName(random: Random): string {
  return `${random.pick(FIRST)} ${random.pick(LAST)}`;
}
