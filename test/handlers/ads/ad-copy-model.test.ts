// The ad-copy-writer with the optional model writer configured (LLM_BASE_URL pointing at the strict fake
// OpenAI server): the model's creatives are used when they keep Meta's limits, link only to knowledge pages
// and state no figure the knowledge does not; otherwise, and on any model failure, the grounded template
// writer writes them, and the run says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignupResult, TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { startSite, type Site } from '../knowledge/site.ts';
import { agentEnv, follow, ingestSite, type Run } from '../agents/agent-fixtures.ts';
import { startFakeLlm, type FakeLlmMode } from '../agents/fake-llm.ts';
import { writeAdCopyWithModel } from '../../../src/handlers/agents/ad-copy/model-writer.ts';
import { json } from './ad-fixtures.ts';

let t: TestApp;
let server: { close(): Promise<void> };
let site: Site;
let owner: SignupResult;
let llm: Awaited<ReturnType<typeof startFakeLlm>>;

beforeAll(async () => {
  [site, llm] = await Promise.all([startSite(), startFakeLlm()]);
  ({ app: t, server } = await listenOnReservedPort({
    jobs: 'work',
    env: {
      ...agentEnv,
      LLM_BASE_URL: llm.baseUrl,
      LLM_API_KEY: llm.apiKey,
      LLM_MODEL: 'fake-4o',
      LLM_TIMEOUT_MS: '800',
    },
  }));
  owner = await t.signup();
  await ingestSite(t, owner.token, site.url);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  await site?.close();
  await llm?.close();
});

type Creative = {
  headline: string;
  primary_text: string;
  description?: string;
  link_url: string;
  call_to_action: string;
};

async function generate(count: number): Promise<Run & { output: { creatives: Creative[] } }> {
  const res = t.request('/api/v1/ad-creatives/generate', {
    method: 'POST',
    token: owner.token,
    json: { goal: 'reusable rocket launches for small teams', count, call_to_action: 'SIGN_UP' },
  });
  const run = await follow(t, owner.token, (await json<{ id: string }>(res, 202)).id);
  expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
  return run as Run & { output: { creatives: Creative[] } };
}

describe('the ad-copy model writer', () => {
  it("uses the model's creatives, with links and citations only to the passages it was sent", async () => {
    llm.setMode('ok');
    const sent = llm.requests.length;
    const run = await generate(2);
    expect(run.notes).toContain('Wrote 2 creatives with the model writer (fake-4o).');
    expect(llm.requests[sent].body?.response_format?.json_schema?.name).toBe('ad_creatives');
    const user = llm.requests[sent].body?.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(run.output.creatives.map((c) => c.headline)).toEqual(['Model ad 1', 'Model ad 2']);
    for (const c of run.output.creatives) {
      expect(user).toContain(`url: ${c.link_url}`);
      expect([...c.primary_text].length).toBeLessThanOrEqual(125);
      expect(c.call_to_action).toBe('SIGN_UP');
      expect(c).not.toHaveProperty('description');
    }
  });

  it.each([
    ['malformed', 'malformed_output'],
    ['rate_limited', 'rate_limited'],
    ['slow', 'timeout'],
  ] as Array<[FakeLlmMode, string]>)(
    'falls back to the template writer when the model answers %s, and says so',
    async (mode, reason) => {
      llm.setMode(mode);
      const run = await generate(1);
      expect(run.notes[0]).toBe(
        `The model writer failed (${reason}); the grounded template writer wrote the creatives instead.`,
      );
      expect(run.output.creatives[0].headline).not.toMatch(/^Model ad/);
    },
  );

  it.each([
    [
      'a figure the knowledge does not state',
      { headline: 'Launch for 40% less', primary_text: 'Small teams launch with us.' },
      /states a figure the knowledge does not/,
    ],
    [
      'a headline past 40 characters',
      { headline: 'A headline that is far too long for Meta to accept', primary_text: 'Small teams launch with us.' },
      /must have 1 to 40 characters/,
    ],
    [
      'a link in the text',
      { headline: 'Launch with us', primary_text: 'Book at https://rockets.example.com now.' },
      /one line without links/,
    ],
  ])('falls back when the model writes %s', async (_what, texts, why) => {
    llm.setMode('ok');
    const sent = llm.requests.length;
    await generate(1);
    const user = llm.requests[sent].body?.messages.find((m) => m.role === 'user')?.content ?? '';
    const [, id] = /chunk_id:\s*(\S+)/.exec(user) as RegExpExecArray;
    const [, url] = /^url:\s*(\S+)$/m.exec(user) as RegExpExecArray;
    llm.answerWith({ creatives: [{ ...texts, description: '', link_url: url, source_chunk_ids: [id] }] });
    try {
      const run = await generate(1);
      expect(run.notes[0]).toMatch(/^The model writer failed \(malformed_output\)/);
      expect(run.output.creatives[0].headline).not.toBe(texts.headline);
      const passages = [{ chunk_id: id, url, title: null, text: 'Small teams launch with us.' }];
      const config = { baseUrl: llm.baseUrl, apiKey: llm.apiKey, model: 'fake-4o', timeoutMs: 800 };
      await expect(
        writeAdCopyWithModel(config, { goal: 'launches', count: 1, passages, callToAction: 'LEARN_MORE' }),
      ).rejects.toThrow(why);
    } finally {
      llm.setMode('ok');
    }
  });
});
