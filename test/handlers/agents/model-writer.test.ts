import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ModelWriterFailure, type ModelWriterConfig } from '../../../src/handlers/agents/chat-completion.ts';
import { writeWithModel, type WriterBrief } from '../../../src/handlers/agents/model-writer.ts';
import { freePort } from '../../helpers/prism.ts';
import { startFakeLlm, type FakeLlm, type FakeLlmMode } from './fake-llm.ts';

const brief: WriterBrief = {
  goal: 'Book a demo of the routing product',
  audience: 'Heads of sales operations at logistics companies',
  tone: 'plain and friendly',
  call_to_action: 'a 20-minute call',
  steps: 3,
  passages: [
    {
      chunk_id: 'chunk-routing',
      url: 'https://example.com/routing',
      title: 'Route planning',
      text: 'Routes are replanned every five minutes.',
    },
    {
      chunk_id: 'chunk-pricing',
      url: 'https://example.com/pricing',
      title: 'Pricing',
      text: 'Plans start at 40 EUR per vehicle per month.',
    },
  ],
  variables: ['first_name', 'last_name', 'company', 'title'],
};

const step = (overrides: Record<string, unknown> = {}) => ({
  subject: 'Route planning',
  body: 'Hi {{first_name | "there"}},\n\nRoutes are replanned every five minutes.',
  wait_days: 0,
  source_chunk_ids: ['chunk-routing'],
  ...overrides,
});

let llm: FakeLlm;
let config: ModelWriterConfig;

beforeAll(async () => {
  llm = await startFakeLlm({ apiKey: 'sk-test-4f9c2a7e1b3d5f60' });
  config = { baseUrl: llm.baseUrl, apiKey: llm.apiKey, model: 'gpt-test-mini', timeoutMs: 10_000 };
});
afterAll(() => llm.close());
beforeEach(() => {
  llm.setMode('ok');
  llm.requests.length = 0;
});

async function failureOf(promise: Promise<unknown>): Promise<ModelWriterFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelWriterFailure);
  return error as ModelWriterFailure;
}

describe('writeWithModel', () => {
  it('turns a valid answer into draft steps citing the passages', async () => {
    const steps = await writeWithModel(config, brief);
    expect(steps).toHaveLength(3);
    expect(steps.map((s) => s.source_chunk_ids)).toEqual([['chunk-routing'], ['chunk-pricing'], ['chunk-routing']]);
    expect(steps.map((s) => s.wait_days)).toEqual([0, 3, 3]);
    expect(steps[0].body).toContain('{{first_name | "there"}}');
  });

  it('sends the model, the bearer key, the json_schema response format and every passage', async () => {
    await writeWithModel(config, brief);
    expect(llm.requests).toHaveLength(1);
    const [request] = llm.requests;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${llm.apiKey}`);
    expect(request.body?.model).toBe('gpt-test-mini');
    expect(request.body?.temperature).toBe(0.2);
    expect(request.body?.response_format?.type).toBe('json_schema');
    expect(request.body?.response_format?.json_schema).toMatchObject({ name: 'email_sequence', strict: true });
    expect(request.body?.response_format?.json_schema?.schema.properties?.steps).toMatchObject({
      minItems: 3,
      maxItems: 3,
    });
    const [system, user] = request.body?.messages ?? [];
    expect(system.role).toBe('system');
    expect(system.content).toContain('ONLY');
    expect(system.content).toMatch(/Quote a customer only whole.*Do not use the same sentence in two emails/s);
    expect(user.role).toBe('user');
    for (const passage of brief.passages) {
      expect(user.content).toContain(passage.chunk_id);
      expect(user.content).toContain(passage.url);
    }
  });

  it('accepts a base URL with a trailing slash', async () => {
    await writeWithModel({ ...config, baseUrl: `${llm.baseUrl}/` }, { ...brief, steps: 1 });
    expect(llm.requests[0].path).toBe('/v1/chat/completions');
  });

  it('accepts links to passage URLs and drops repeated citations', async () => {
    llm.answerWith({
      steps: [step({ body: 'See https://example.com/pricing.', source_chunk_ids: ['chunk-pricing', 'chunk-pricing'] })],
    });
    const [only] = await writeWithModel(config, { ...brief, steps: 1 });
    expect(only.source_chunk_ids).toEqual(['chunk-pricing']);
  });

  it('rejects a step count other than 1 to 6 before calling the model', async () => {
    await expect(writeWithModel(config, { ...brief, steps: 7 })).rejects.toThrow(RangeError);
    expect(llm.requests).toHaveLength(0);
  });
});

describe('writeWithModel failures', () => {
  it.each<[FakeLlmMode, string]>([
    ['malformed', 'malformed_output'],
    ['wrong_shape', 'malformed_output'],
    ['refusal', 'refused'],
    ['rate_limited', 'rate_limited'],
    ['server_error', 'http_error'],
  ])('maps the %s answer to %s', async (mode, reason) => {
    llm.setMode(mode);
    const failure = await failureOf(writeWithModel(config, brief));
    expect(failure.reason).toBe(reason);
  });

  it('says the status and the retry-after of a 429, and does not retry', async () => {
    llm.setMode('rate_limited');
    const failure = await failureOf(writeWithModel(config, brief));
    expect(failure.message).toContain('429');
    expect(failure.message).toContain('retry after 20');
    expect(llm.requests).toHaveLength(1);
  });

  it('maps an answer slower than timeoutMs to timeout', async () => {
    llm.setMode('slow');
    const failure = await failureOf(writeWithModel({ ...config, timeoutMs: 200 }, brief));
    expect(failure.reason).toBe('timeout');
  });

  it('maps a closed port to unreachable', async () => {
    const port = await freePort();
    const failure = await failureOf(writeWithModel({ ...config, baseUrl: `http://127.0.0.1:${port}/v1` }, brief));
    expect(failure.reason).toBe('unreachable');
    expect(failure.message).toContain('ECONNREFUSED');
  });

  it('maps a refused key to http_error with the status', async () => {
    const failure = await failureOf(writeWithModel({ ...config, apiKey: 'sk-wrong-key-000000000000' }, brief));
    expect(failure.reason).toBe('http_error');
    expect(failure.message).toContain('401');
    expect(failure.message).not.toContain('sk-wrong-key-000000000000');
  });

  it('maps finish_reason content_filter to refused', async () => {
    const filtered = {
      choices: [{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'content_filter' }],
    };
    const fetchFiltered: typeof fetch = async () => Response.json(filtered);
    const failure = await failureOf(writeWithModel(config, brief, { fetch: fetchFiltered }));
    expect(failure.reason).toBe('refused');
  });

  it('rethrows the caller’s abort rather than calling it a model failure', async () => {
    const reason = new Error('the run was cancelled');
    await expect(writeWithModel(config, brief, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });
});

describe('writeWithModel output checks', () => {
  it.each<[string, Record<string, unknown>]>([
    ['cites a chunk id not in the passages', { source_chunk_ids: ['chunk-invented'] }],
    [
      'uses a variable that is not allowed',
      { body: 'Hi {{custom.plan | "friend"}}, routes are replanned every five minutes.' },
    ],
    ['uses a variable without a fallback', { body: 'Hi {{first_name}}, routes are replanned every five minutes.' }],
    ['leaves a placeholder in brackets', { body: 'Hi [First Name], routes are replanned every five minutes.' }],
    ['leaves a stray brace', { body: 'Hi {first_name}, routes are replanned every five minutes.' }],
    ['links outside the passages', { body: 'Book at https://calendly.example.net/sales' }],
    ['has an empty subject', { subject: '   ' }],
    ['has a subject over 150 characters', { subject: 'x'.repeat(151) }],
    ['has a body over 5000 characters', { body: 'x'.repeat(5001) }],
    ['waits more than 30 days', { wait_days: 31 }],
    ['waits a fractional number of days', { wait_days: 1.5 }],
  ])('maps an answer that %s to malformed_output', async (_name, overrides) => {
    llm.answerWith({ steps: [step(overrides)] });
    const failure = await failureOf(writeWithModel(config, { ...brief, steps: 1 }));
    expect(failure.reason).toBe('malformed_output');
  });

  it('maps a step count other than the brief’s to malformed_output', async () => {
    llm.answerWith({ steps: [step(), step({ wait_days: 2 })] });
    const failure = await failureOf(writeWithModel(config, brief));
    expect(failure.reason).toBe('malformed_output');
    expect(failure.message).toContain('steps');
  });
});

describe('writeWithModel and the API key', () => {
  it('keeps the key out of every failure message', async () => {
    const messages: string[] = [];
    for (const mode of ['malformed', 'wrong_shape', 'refusal', 'rate_limited', 'server_error'] as const) {
      llm.setMode(mode);
      messages.push((await failureOf(writeWithModel(config, brief))).message);
    }
    llm.setMode('slow');
    messages.push((await failureOf(writeWithModel({ ...config, timeoutMs: 200 }, brief))).message);
    const port = await freePort();
    messages.push(
      (await failureOf(writeWithModel({ ...config, baseUrl: `http://127.0.0.1:${port}/v1` }, brief))).message,
    );
    expect(messages).toHaveLength(7);
    for (const message of messages) expect(message).not.toContain(config.apiKey);
  });

  it('redacts a key the endpoint echoes and cuts its error body short', async () => {
    const echo: typeof fetch = async () =>
      Response.json(
        { error: { message: `Key ${config.apiKey} is not valid here. ${'x'.repeat(1000)}` } },
        { status: 403 },
      );
    const failure = await failureOf(writeWithModel(config, brief, { fetch: echo }));
    expect(failure.reason).toBe('http_error');
    expect(failure.message).toContain('403');
    expect(failure.message).toContain('[redacted]');
    expect(failure.message).not.toContain(config.apiKey);
    expect(failure.message.length).toBeLessThan(300);
  });
});
