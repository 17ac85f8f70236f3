// The blog-post-writer with the optional model writer configured (LLM_BASE_URL pointing at the strict fake
// OpenAI server): the model's structured post becomes the draft, with our own source line under each
// section; a model failure, or a post that fails the checks (a figure the knowledge does not have, raw
// HTML), falls back to the grounded template writer, and the run says which wrote it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { startSite, type Site } from '../knowledge/site.ts';
import { startFakeLlm, type FakeLlmMode } from '../agents/fake-llm.ts';
import { blogEnv, blogWorkspace, generatePost, topic, type BlogWorkspace } from './blog-fixtures.ts';

let t: TestApp;
let site: Site;
let ws: BlogWorkspace;
let server: { close(): Promise<void> };
let llm: Awaited<ReturnType<typeof startFakeLlm>>;

beforeAll(async () => {
  [site, llm] = await Promise.all([startSite(), startFakeLlm()]);
  ({ app: t, server } = await listenOnReservedPort({
    jobs: 'work',
    env: {
      ...blogEnv,
      LLM_BASE_URL: llm.baseUrl,
      LLM_API_KEY: llm.apiKey,
      LLM_MODEL: 'fake-4o',
      LLM_TIMEOUT_MS: '800',
    },
  }));
  ws = await blogWorkspace(t, site.url);
});
afterAll(async () => {
  await site?.close();
  await server?.close();
  await llm?.close();
});

const userMessage = (i: number) => llm.requests[i]?.body?.messages.find((m) => m.role === 'user')?.content ?? '';

describe('the blog model writer', () => {
  it("writes the post from the model's structured answer, citing the passages it was sent", async () => {
    llm.setMode('ok');
    const sent = llm.requests.length;
    const { run, post } = await generatePost(t, ws.token);
    expect(run.notes).toContain('Written by the model writer (fake-4o); each section cites the pages it drew on.');
    const request = llm.requests[sent].body;
    expect(request?.response_format?.json_schema?.name).toBe('blog_post');
    expect(request?.response_format?.json_schema?.strict).toBe(true);
    expect(post.title).toBe(`A model's guide to ${topic.topic}`);
    expect(post.slug).toBe('a-models-guide-to-reusable-rockets-for-small-satellite-teams');
    expect(post.outline).toHaveLength(3);
    expect(post.body_markdown).toContain('## Part 1: ');
    const user = userMessage(sent);
    for (const section of post.outline) for (const id of section.chunk_ids) expect(user).toContain(`chunk_id: ${id}`);
    for (const source of post.sources) expect(post.body_markdown).toContain(`](${source.url})*`);
  });

  const failures: Array<[FakeLlmMode, string]> = [
    ['malformed', 'malformed_output'],
    ['wrong_shape', 'malformed_output'],
    ['refusal', 'refused'],
    ['rate_limited', 'rate_limited'],
    ['slow', 'timeout'],
  ];
  it.each(failures)(
    'falls back to the template writer when the model answers %s, and says so',
    async (mode, reason) => {
      llm.setMode(mode);
      const { run, post } = await generatePost(t, ws.token, { ...topic, length: 'short' });
      expect(run.notes).toContain(
        `The model writer failed (${reason}); the grounded template writer wrote it instead.`,
      );
      expect(post.title).not.toMatch(/^A model's guide/);
      expect(post.body_markdown).toContain('*Source: [');
    },
  );

  it.each([
    [
      'a figure the knowledge does not have',
      'Teams save 73% on every launch with us, as everyone knows.',
      /The figure "73%" is not in the workspace's knowledge/,
    ],
    [
      'raw HTML',
      'A launch <img src=x onerror=alert(1)> like no other, for small teams everywhere.',
      /Raw HTML is not allowed/,
    ],
  ])("falls back when the model's post has %s", async (_what, sectionBody, why) => {
    llm.setMode('ok');
    const sent = llm.requests.length;
    await generatePost(t, ws.token, { ...topic, length: 'short' });
    const ids = [...userMessage(sent).matchAll(/chunk_id:\s*(\S+)/g)].map((m) => m[1]);
    const section = { heading: 'Launches', body: sectionBody, source_chunk_ids: [ids[0]] };
    llm.answerWith({
      title: 'Launch faster',
      meta_description: 'How small teams launch.',
      introduction: 'Small teams launch with us, and here is how it works.',
      sections: [section, section],
    });
    try {
      const { run, post } = await generatePost(t, ws.token, { ...topic, length: 'short' });
      expect(run.notes.join(' ')).toMatch(/The model's post failed the checks \(/);
      expect(run.notes.join(' ')).toMatch(why);
      expect(post.title).not.toBe('Launch faster');
    } finally {
      llm.setMode('ok');
    }
  });
});
