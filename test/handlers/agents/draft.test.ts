// The draft checks every writer's output passes, and the grounded template writer: a table of drafts with
// what each check says, and the writer's draft from fixed passages (only their sentences, cited, the same
// every time).
import { describe, expect, it } from 'vitest';
import { checkDraft } from '../../../src/handlers/agents/email-sequence/draft-check.ts';
import { productName, writeWithTemplates } from '../../../src/handlers/agents/email-sequence/template-writer.ts';
import type { DraftStep, WriterBrief } from '../../../src/handlers/agents/model-writer.ts';

const passages = [
  {
    chunk_id: 'kc_a',
    url: 'https://acme.example/',
    title: 'Acme Rockets | Home',
    text: 'Reusable rockets for small teams\nAcme Rockets builds reusable launch vehicles that small teams can fly every week. Launch costs fall by ninety percent when the booster comes home.\nRead about our company , our diary.',
  },
  {
    chunk_id: 'kc_b',
    url: 'https://acme.example/pricing',
    title: 'Pricing',
    text: 'A dedicated launch costs 1.2 million dollars, and 40 customers flew with us in 2025. See https://acme.example/pricing for details.',
  },
];
const brief: WriterBrief = {
  goal: 'Sell reusable launches',
  audience: 'satellite startups',
  tone: 'professional',
  call_to_action: 'a 15-minute call',
  steps: 1,
  passages,
  variables: ['first_name', 'company'],
};
const step = (over: Partial<DraftStep>): DraftStep => ({
  subject: 'Launches for {{company | "your team"}}',
  body: 'Hello {{first_name | "there"}},\n\nA dedicated launch costs 1.2 million dollars.',
  wait_days: 0,
  source_chunk_ids: ['kc_b'],
  ...over,
});

const cases: Array<[string, Partial<DraftStep>, string[]]> = [
  ['a grounded step passes', {}, []],
  ['an unknown variable', { body: 'Hi {{nickname | "x"}}, a long enough body.' }, ['unresolved_variable']],
  [
    'a variable without a fallback',
    { body: 'Hi {{first_name}}, a long enough body here.' },
    ['variable_without_fallback'],
  ],
  ['a placeholder left in', { body: 'Hi [First Name], a long enough body here.' }, ['placeholder']],
  ['its own unsubscribe line', { body: 'Hello there, click here to unsubscribe from this.' }, ['own_footer']],
  [
    'a figure the knowledge does not have',
    { body: 'Hello there, teams save 73% with us today.' },
    ['ungrounded_figure'],
  ],
  [
    'a link the knowledge does not have',
    { body: 'Hello there, see https://evil.example/offer now.' },
    ['ungrounded_link'],
  ],
  ['a link the knowledge has', { body: 'Hello there, see https://acme.example/pricing now.' }, []],
  ['a citation outside the passages', { source_chunk_ids: ['kc_zzz'] }, ['ungrounded_step']],
  ['a subject too long', { subject: 'x'.repeat(151) }, ['subject_length']],
  ['a body too short', { body: 'Hi.' }, ['body_length']],
];

describe('checkDraft', () => {
  it.each(cases)('%s', (_name, over, codes) => {
    expect(checkDraft([step(over)], brief).map((p) => p.code)).toEqual(codes);
  });

  it('refuses a draft with another number of steps than asked', () => {
    expect(checkDraft([step({}), step({})], brief).map((p) => p.code)).toEqual(['step_count']);
  });
});

describe('writeWithTemplates', () => {
  it('builds each step from whole sentences of the passages, cites them, and passes the checks', () => {
    const steps = writeWithTemplates({ ...brief, steps: 3 });
    expect(steps).toHaveLength(3);
    expect(steps.map((s) => s.wait_days)).toEqual([0, 3, 4]);
    expect(steps[0].body).toContain(
      'Acme Rockets builds reusable launch vehicles that small teams can fly every week.',
    );
    expect(steps.map((s) => s.body).join('\n')).not.toContain('Read about our company');
    for (const s of steps) expect(s.source_chunk_ids.every((id) => ['kc_a', 'kc_b'].includes(id))).toBe(true);
    expect(checkDraft(steps, { ...brief, steps: 3 })).toEqual([]);
    expect(writeWithTemplates({ ...brief, steps: 3 })).toEqual(steps);
  });

  it('ends a longer sequence with a closing note and follows the tone', () => {
    const more = {
      chunk_id: 'kc_c',
      url: 'https://acme.example/about',
      title: 'About',
      text: 'Founded in 2019, Acme Rockets employs forty engineers in Mojave.',
    };
    const steps = writeWithTemplates({ ...brief, passages: [...passages, more], steps: 4, tone: 'friendly' });
    expect(steps[3].subject).toBe('Closing the loop, {{first_name | "there"}}');
    expect(steps[0].body.startsWith('Hi {{first_name | "there"}},')).toBe(true);
    expect(steps[0].body.endsWith('Cheers')).toBe(true);
  });

  it('writes nothing rather than use a sentence twice when the passages have fewer sentences than steps', () => {
    expect(writeWithTemplates({ ...brief, steps: 4 })).toEqual([]);
  });

  it('writes nothing from passages without a sentence', () => {
    expect(
      writeWithTemplates({
        ...brief,
        passages: [{ chunk_id: 'kc_m', url: 'https://x.example/', title: null, text: 'Home\nAbout\nPricing' }],
      }),
    ).toEqual([]);
  });

  it('names the product from the first page title', () => {
    expect(productName(passages)).toBe('Acme Rockets');
  });
});
