// The email-sequence-generator's default writer on a site of customer testimonials, through the real app: a
// quotation reaches an email whole, in its marks and with its speaker, or not at all, and no sentence is used
// in two emails of the sequence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { startSite, type Site } from '../knowledge/site.ts';
import { json, readyWorkspace, type Workspace } from '../sequences/sequence-fixtures.ts';
import { agentEnv, follow, ingestSite, runAgent, waiting } from './agent-fixtures.ts';

const QUOTES = [
  { words: ['We tried three tools.', 'Only Acme showed us within a week where our margins went.'], name: 'Dana Reeve' },
  {
    words: ['Setup took one afternoon.', 'We didn\'t need an engineer, and the reports "just work" every morning.'],
    name: 'Sam Ode',
  },
  {
    words: ['Acme paid for itself in the first month.', 'Our roasters check it before the first batch.'],
    name: 'Mara Lind',
  },
  { words: ['It is the first tool our roastery team opens each day.'], name: null },
];

const testimonials = `<!doctype html><html><head><title>Acme Analytics | Coffee roasteries</title></head><body><main>
<h1>Margins for coffee roasteries</h1>
<p>Acme Analytics shows a coffee roastery where its margins go, bean by bean and batch by batch.</p>
<p>Acme Analytics connects to your roaster and your till in one afternoon, with no engineers.</p>
<h2>What roasters say</h2>
<blockquote><p>“${QUOTES[0].words.join(' ')}”</p><p>— Dana Reeve, owner of Hillside Roastery</p></blockquote>
<p>'${QUOTES[1].words.join(' ')}' — Sam Ode, head roaster at Petal Coffee.</p>
<p>Mara Lind, founder of North Bean Roasters, says: "${QUOTES[2].words.join(' ')}"</p>
<p>"${QUOTES[3].words[0]}" Coffee roasteries of every size use the weekly margin report.</p>
<h2>How it works</h2>
<p>Every roast batch is costed from green bean to bag, so a roastery sees which coffees earn money.</p>
<p>The weekly margin report lands in the owner's inbox each Monday morning.</p>
<p>Roasteries pay 49 dollars a month per roaster, and the first month is free.</p>
</main></body></html>`;

let t: TestApp;
let site: Site;
let ws: Workspace;
let sourceId: string;
let server: { close(): Promise<void> };

beforeAll(async () => {
  site = await startSite();
  site.set('/', { html: testimonials });
  ({ app: t, server } = await listenOnReservedPort({ jobs: 'work', env: agentEnv }));
  ws = await readyWorkspace(t);
  sourceId = await ingestSite(t, ws.owner.token, site.url);
});
afterAll(async () => {
  await site?.close();
  await server?.close();
});

/** Each sentence of a body, as written (a quotation's sentences are sentences too; a greeting is not one). */
const sentences = (body: string) =>
  body
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?]["”'’]?)\s+/))
    .filter((s) => s.length >= 20 && /[.!?]["”'’]?$/.test(s));

describe('the email-sequence-generator on testimonials', () => {
  it('quotes a customer whole and attributed or not at all, and uses no sentence twice', async () => {
    const token = ws.owner.token;
    const input = {
      goal: 'Sell Acme Analytics margin reports to coffee roasteries',
      audience: 'owners of coffee roasteries',
      steps: 5,
      knowledge_source_ids: [sourceId],
    };
    const parked = await follow(t, token, (await runAgent(t, token, input)).id, waiting);
    expect(parked.status, JSON.stringify(parked.error)).toBe('requires_action');
    const sequenceId = parked.output?.resources.find((r) => r.type === 'email_sequence')?.id;
    const sequence = await json(t.request(`/api/v1/sequences/${sequenceId}`, { token }));
    const bodies: string[] = sequence.steps.map((s: { body: string }) => s.body);
    expect(bodies).toHaveLength(5);

    let quoted = 0;
    for (const body of bodies) {
      for (const quote of QUOTES) {
        if (!quote.words.some((w) => body.includes(w))) continue;
        expect(quote.name, `an unattributed quotation in:\n${body}`).not.toBeNull();
        expect(body, 'the whole quotation, in one paragraph').toMatch(
          new RegExp(
            `["“'][^\\n]*${quote.words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join(' ')}[^\\n]*["”']`,
          ),
        );
        expect(body).toContain(quote.name);
        quoted++;
      }
    }
    expect(quoted, 'at least one testimonial is used').toBeGreaterThan(0);

    const all = bodies.flatMap((body, step) => [...new Set(sentences(body))].map((s) => ({ s, step })));
    const repeated = all.filter((a, i) => all.findIndex((b) => b.s === a.s) !== i);
    expect(repeated, bodies.join('\n=====\n')).toEqual([]);
  });
});
