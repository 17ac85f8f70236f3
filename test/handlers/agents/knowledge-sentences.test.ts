// The sentences the grounded writers build from: a quotation is one unit with its attribution (however many
// sentences it spans, whichever marks it uses, nested or across lines), or it is left out; never half of it.
import { describe, expect, it } from 'vitest';
import { knowledgeSentences } from '../../../src/handlers/agents/knowledge-sentences.ts';

const sentences = (text: string) => knowledgeSentences([text], [], { refused: /[<>]/ });
const texts = (text: string) => sentences(text).map((s) => s.text);

const DANA = 'We tried three tools. Only Acme showed us within a week.';

describe('knowledgeSentences', () => {
  const cases: Array<[string, { given: string; want: string[] }]> = [
    [
      'splits plain prose into sentences',
      {
        given: 'Acme builds rockets for small teams. Launch costs fall by ninety percent.',
        want: ['Acme builds rockets for small teams.', 'Launch costs fall by ninety percent.'],
      },
    ],
    [
      'keeps a quotation of several sentences with its dash attribution',
      {
        given: `“${DANA}” — Dana Reeve, owner of Hillside Roastery.`,
        want: [`“${DANA}” — Dana Reeve, owner of Hillside Roastery.`],
      },
    ],
    [
      'keeps a quotation in straight single quotes whole',
      {
        given: `'${DANA}' — Dana Reeve, owner of Hillside Roastery.`,
        want: [`'${DANA}' — Dana Reeve, owner of Hillside Roastery.`],
      },
    ],
    [
      'keeps a quotation in straight double quotes followed by a sentence of its own',
      {
        given: `"${DANA}" — Dana Reeve, owner of Hillside Roastery. Launch costs fall by ninety percent.`,
        want: [`"${DANA}" — Dana Reeve, owner of Hillside Roastery.`, 'Launch costs fall by ninety percent.'],
      },
    ],
    [
      'joins an attribution on the next line to its quotation',
      {
        given: `"${DANA}"\n— Dana Reeve, owner of Hillside Roastery`,
        want: [`"${DANA}" — Dana Reeve, owner of Hillside Roastery`],
      },
    ],
    [
      'joins a quotation that runs over several lines',
      {
        given: `“We tried three tools.\nOnly Acme showed us within a week.”\n— Dana Reeve`,
        want: [`“${DANA}” — Dana Reeve`],
      },
    ],
    [
      'keeps a quotation whose speaker comes first',
      {
        given: `Dana Reeve, owner of Hillside Roastery, says: "${DANA}"`,
        want: [`Dana Reeve, owner of Hillside Roastery, says: "${DANA}"`],
      },
    ],
    [
      'keeps a quotation followed by said and a name',
      {
        given: '"Only Acme showed us within a week," said Dana Reeve of Hillside Roastery.',
        want: ['"Only Acme showed us within a week," said Dana Reeve of Hillside Roastery.'],
      },
    ],
    [
      'keeps a nested quotation whole',
      {
        given: '“Dana told us ‘try it for a week’ and we did. It changed our deliveries.” — Sam Ode, Petal and Stem.',
        want: ['“Dana told us ‘try it for a week’ and we did. It changed our deliveries.” — Sam Ode, Petal and Stem.'],
      },
    ],
    [
      'leaves out a quotation nobody is named for, with the sentence that follows it',
      {
        given: `Acme builds rockets for small teams. "${DANA}" Launch costs fall by ninety percent.`,
        want: ['Acme builds rockets for small teams.'],
      },
    ],
    ['leaves out a quotation attributed to no one in particular', { given: `Our customers say: "${DANA}"`, want: [] }],
    [
      'leaves out the end of a quotation whose start is in another passage',
      {
        given:
          'Only Acme showed us within a week." — Dana Reeve, owner of Hillside Roastery. Launch costs fall by ninety percent.',
        want: ['Launch costs fall by ninety percent.'],
      },
    ],
    [
      'leaves out the end of a single-quoted quotation whose start is elsewhere',
      {
        given:
          "showed us within a week.' — Dana Reeve, owner of Hillside Roastery. Launch costs fall by ninety percent.",
        want: ['Launch costs fall by ninety percent.'],
      },
    ],
    [
      'leaves out a quotation that never closes',
      {
        given: 'Acme builds rockets for small teams. “We tried three tools and only Acme showed us',
        want: ['Acme builds rockets for small teams.'],
      },
    ],
    [
      'leaves out a lone attribution line',
      {
        given: 'Acme builds rockets for small teams.\n— Dana Reeve, owner of Hillside Roastery.',
        want: ['Acme builds rockets for small teams.'],
      },
    ],
    [
      'reads apostrophes and possessives as letters, not quotation marks',
      {
        given: "Acme's boosters land on the shops' own pads. We don’t charge for landings at all.",
        want: ["Acme's boosters land on the shops' own pads.", 'We don’t charge for landings at all.'],
      },
    ],
    [
      'reads a right single mark before a word as an apostrophe',
      {
        given: 'Acme has built rockets in Mojave since the ’90s.',
        want: ['Acme has built rockets in Mojave since the ’90s.'],
      },
    ],
    [
      'keeps a quoted term as plain prose',
      {
        given: 'Our "Pro" plan includes five launches a year.',
        want: ['Our "Pro" plan includes five launches a year.'],
      },
    ],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(texts(given)).toEqual(want);
  });

  it('marks a quotation as a quote and prose as not', () => {
    const found = sentences(`Acme builds rockets for small teams. “${DANA}” — Dana Reeve, owner of Hillside Roastery.`);
    expect(found.map((s) => s.quote)).toEqual([false, true]);
  });
});
