// The email-sequence-generator with the optional model writer configured (LLM_BASE_URL pointing at the strict
// fake OpenAI server): a valid structured answer becomes the draft; a malformed answer, a refusal, a 429, a
// 500, a timeout or a draft that fails the checks (a figure the knowledge does not have) falls back to the
// grounded template writer, and the run says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { listenOnReservedPort } from '../connectors/listen.ts';
import { startSite, type Site } from '../knowledge/site.ts';
import { json, readyWorkspace, type Workspace } from '../sequences/sequence-fixtures.ts';
import { agentEnv, brief, follow, ingestSite, runAgent, waiting } from './agent-fixtures.ts';
import { startFakeLlm, type FakeLlmMode } from './fake-llm.ts';

let t: TestApp;
let site: Site;
let ws: Workspace;
let server: { close(): Promise<void> };
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
  ws = await readyWorkspace(t);
  await ingestSite(t, ws.owner.token, site.url);
});
afterAll(async () => {
  await site?.close();
  await server?.close();
  await llm?.close();
});

async function draftOf(runId: string) {
  const run = await follow(t, ws.owner.token, runId, waiting);
  expect(run.status, JSON.stringify(run.error)).toBe('requires_action');
  const seq = await json(t.request(`/api/v1/sequences/${run.output?.resources[0].id}`, { token: ws.owner.token }));
  return {
    run,
    steps: seq.steps as Array<{ subject: string; body: string; sources: Array<{ chunk_id: string; url: string }> }>,
  };
}

describe('the model writer', () => {
  it("writes the draft from the model's structured answer, grounded in the passages it was sent", async () => {
    llm.setMode('ok');
    const sent = llm.requests.length;
    const { run, steps } = await draftOf((await runAgent(t, ws.owner.token, brief)).id);
    expect(run.notes).toContain('Written by the model writer (fake-4o).');
    expect(steps).toHaveLength(3);
    expect(steps[0].subject).toMatch(/\(1 of 3\)$/);
    const request = llm.requests[sent].body;
    expect(request?.model).toBe('fake-4o');
    expect(request?.response_format?.type).toBe('json_schema');
    const user = request?.messages.find((m) => m.role === 'user')?.content ?? '';
    for (const step of steps) for (const source of step.sources) expect(user).toContain(source.chunk_id);
  });

  const failures: Array<[FakeLlmMode, string]> = [
    ['malformed', 'malformed_output'],
    ['refusal', 'refused'],
    ['rate_limited', 'rate_limited'],
    ['server_error', 'http_error'],
    ['slow', 'timeout'],
  ];
  it.each(failures)(
    'falls back to the template writer when the model answers %s, and says so',
    async (mode, reason) => {
      llm.setMode(mode);
      const { run, steps } = await draftOf((await runAgent(t, ws.owner.token, { ...brief, steps: 2 })).id);
      expect(run.notes).toContain(
        `The model writer failed (${reason}); the grounded template writer wrote it instead.`,
      );
      expect(steps[0].body).toContain('{{first_name | "there"}}');
      expect(steps[0].subject).not.toMatch(/of 2\)$/);
    },
  );

  it("falls back when the model's draft claims a figure the knowledge does not have", async () => {
    llm.setMode('ok');
    // The passages retrieval hands the model for this brief (the same for every run on the same knowledge).
    const user = llm.requests.find((r) => r.body)?.body?.messages.find((m) => m.role === 'user')?.content ?? '';
    const ids = [...user.matchAll(/chunk_id:\s*(\S+)/g)].map((m) => m[1]);
    llm.answerWith({
      steps: [
        {
          subject: 'Save 73% on launches',
          body: 'Hi {{first_name | "there"}},\n\nTeams save 73% with us.\n\nTalk soon?',
          wait_days: 0,
          source_chunk_ids: [ids[0]],
        },
      ],
    });
    try {
      const { run } = await draftOf((await runAgent(t, ws.owner.token, { ...brief, steps: 1 })).id);
      expect(run.notes.join(' ')).toMatch(
        /The model's draft failed the checks \(step 1: The figure "73%" is not in the workspace's knowledge/,
      );
    } finally {
      llm.answerWith(undefined);
    }
  });
});
