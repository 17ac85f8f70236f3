// The draft checks that hold any writer (the model's or the templates) to the knowledge's own words: a
// customer's quotation appears whole, in its marks, with its speaker's name, or not at all; no sentence is
// used in two steps; and the brief itself must be about what the knowledge says.
import { describe, expect, it } from 'vitest';
import { checkDraft } from '../../../src/handlers/agents/email-sequence/draft-check.ts';
import type { DraftStep, WriterBrief } from '../../../src/handlers/agents/model-writer.ts';

const DANA = 'We tried three tools. Only Acme showed us within a week.';
const passages = [
  {
    chunk_id: 'kc_a',
    url: 'https://acme.example/',
    title: 'Acme Analytics',
    text: 'Acme Analytics shows a roastery where its margins go. Setup takes one afternoon and no engineers.',
  },
  {
    chunk_id: 'kc_q',
    url: 'https://acme.example/customers',
    title: 'Customers',
    text: `“${DANA}” — Dana Reeve, owner of Hillside Roastery.\nthe numbers we needed.' — Sam Ode, Petal and Stem.`,
  },
];
const brief: WriterBrief = {
  goal: 'Sell Acme Analytics to roasteries',
  audience: 'coffee roastery owners',
  tone: 'professional',
  call_to_action: 'a 15-minute call',
  steps: 2,
  passages,
  variables: ['first_name', 'company'],
};
const hello = 'Hello {{first_name | "there"}},';
const step = (middle: string): DraftStep => ({
  subject: 'Margins for {{company | "your team"}}',
  body: `${hello}\n\n${middle}\n\nBest regards`,
  wait_days: 0,
  source_chunk_ids: ['kc_a', 'kc_q'],
});
const codes = (bodies: string[], over: Partial<WriterBrief> = {}) =>
  checkDraft(bodies.map(step), { ...brief, ...over }).map((p) => `${p.step}:${p.code}`);

describe('checkDraft on the knowledge', () => {
  const cases: Array<[string, { given: string[]; want: string[] }]> = [
    [
      'passes a whole quotation in its marks with its speaker',
      {
        given: [
          `As Dana Reeve, owner of Hillside Roastery, puts it: "${DANA}"`,
          'Setup takes one afternoon and no engineers.',
        ],
        want: [],
      },
    ],
    [
      'passes the quotation exactly as the knowledge writes it',
      {
        given: [`“${DANA}” — Dana Reeve, owner of Hillside Roastery.`, 'Setup takes one afternoon and no engineers.'],
        want: [],
      },
    ],
    [
      "fails a sentence of a quotation written as the sender's words",
      {
        given: ['Only Acme showed us within a week.', 'Setup takes one afternoon and no engineers.'],
        want: ['1:broken_quotation'],
      },
    ],
    [
      'fails half a quotation, even in marks and attributed',
      {
        given: [
          "'Only Acme showed us within a week.' — Dana Reeve, owner of Hillside Roastery.",
          'Setup takes one afternoon and no engineers.',
        ],
        want: ['1:broken_quotation'],
      },
    ],
    [
      'fails a whole quotation without its speaker',
      { given: [`"${DANA}"`, 'Setup takes one afternoon and no engineers.'], want: ['1:broken_quotation'] },
    ],
    [
      'fails a whole quotation without its marks',
      {
        given: [`${DANA} Dana Reeve, owner of Hillside Roastery.`, 'Setup takes one afternoon and no engineers.'],
        want: ['1:broken_quotation'],
      },
    ],
    [
      'fails the end of a quotation whose start the passages lack',
      {
        given: ['Acme Analytics shows a roastery where its margins go.', 'It gave us the numbers we needed.'],
        want: ['2:broken_quotation'],
      },
    ],
    [
      'fails a sentence used in two steps',
      {
        given: [
          'Setup takes one afternoon and no engineers.',
          'Acme Analytics shows a roastery where its margins go. Setup takes one afternoon and no engineers.',
        ],
        want: ['2:repeated_sentence'],
      },
    ],
    [
      'passes the same greeting and sign-off in every step',
      {
        given: ['Setup takes one afternoon and no engineers.', 'Acme Analytics shows a roastery where its margins go.'],
        want: [],
      },
    ],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(codes(given)).toEqual(want);
  });

  const briefs: Array<[string, { given: Partial<WriterBrief>; want: string[] }]> = [
    ['passes a brief whose goal the knowledge is about', { given: {}, want: [] }],
    [
      'passes the default call to action, which names no product',
      { given: { call_to_action: 'a 15-minute call next week' }, want: [] },
    ],
    [
      'fails a brief about something the knowledge never mentions',
      {
        given: {
          goal: 'Get local shops to book a free week-long trial of a Brightline cargo e-bike',
          call_to_action: 'a free week-long trial of a cargo bike at your shop',
        },
        want: ['0:brief_outside_knowledge'],
      },
    ],
  ];
  it.each(briefs)('%s', (_, { given, want }) => {
    expect(
      codes(
        ['Setup takes one afternoon and no engineers.', 'Acme Analytics shows a roastery where its margins go.'],
        given,
      ),
    ).toEqual(want);
  });

  it("names the brief's words the knowledge does not have", () => {
    const [problem] = checkDraft(
      [
        step('Setup takes one afternoon and no engineers.'),
        step('Acme Analytics shows a roastery where its margins go.'),
      ],
      { ...brief, goal: 'Rent Brightline cargo bikes to roasteries' },
    );
    expect(problem.message).toMatch(/brightline.*cargo.*bikes/);
  });
});
