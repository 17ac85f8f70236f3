// A strict local fake of OpenAI's chat-completions API over real HTTP, for the model writer and the
// agent runs that use it. Usage:
//
//   const llm = await startFakeLlm();            // or startFakeLlm({ apiKey: 'sk-…' })
//   env: LLM_BASE_URL=llm.baseUrl (ends with /v1), LLM_API_KEY=llm.apiKey, LLM_MODEL=any name
//   llm.setMode('rate_limited');                 // how the next requests are answered (default 'ok')
//   llm.answerWith({ steps: [...] });            // answer every request with this content instead
//   llm.requests                                 // every request received, refused ones too
//   await llm.close();
//
// It checks what OpenAI checks before answering: `Authorization: Bearer <apiKey>` (401 with OpenAI's
// error body otherwise), a JSON body with `model` and non-empty `messages` (400 otherwise). Modes:
// - ok: a valid structured-output completion, deterministic for a given request. For json_schema
//   `blog_post`: as many sections as `sections.minItems` asks, section i quoting the first sentence of the
//   i-th passage block and citing its chunk id. For `ad_creatives`: `creatives.minItems` ads headed
//   "Model ad <n>", ad i quoting passage i's first sentence and linking to its url. Otherwise (an email sequence): as many steps as the
//   json_schema's `steps.minItems` asks (else 1), step i citing the i-th `chunk_id: <id>` found in the
//   user message (cycling), each with its own sentences, using {{first_name | "there"}} only when the user
//   message allows first_name;
// - malformed: content `{not json`;  wrong_shape: valid JSON with the wrong fields;
// - refusal: message.refusal set and content null (OpenAI structured outputs' refusal);
// - slow: never answers; the request is held until the client gives up or close() is called;
// - rate_limited: 429 with `retry-after: 20` and OpenAI's error body;  server_error: 500.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeLlmMode = 'ok' | 'malformed' | 'wrong_shape' | 'refusal' | 'slow' | 'rate_limited' | 'server_error';

export interface ChatMessage {
  role: string;
  content: string | null;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: JsonSchema } };
  temperature?: number;
}

interface JsonSchema {
  properties?: { steps?: { minItems?: number } & Record<string, unknown> } & Record<string, unknown>;
  [keyword: string]: unknown;
}

export interface FakeLlmRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body, when it was a chat request the fake accepted (else undefined). */
  body: ChatRequest | undefined;
}

export interface FakeLlm {
  /** `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  apiKey: string;
  setMode(mode: FakeLlmMode): void;
  /** Answers every later request with this message content (a string as is, anything else as JSON), until setMode. */
  answerWith(content: unknown): void;
  requests: FakeLlmRequest[];
  close(): Promise<void>;
}

const CREATED = 1_700_000_000;

function openAiError(
  res: ServerResponse,
  status: number,
  error: { message: string; type: string; code: string | null },
  headers: Record<string, string> = {},
) {
  send(res, status, { error: { message: error.message, type: error.type, param: null, code: error.code } }, headers);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** OpenAI shows a refused key masked, never whole. */
const masked = (key: string) => (key.length > 8 ? `${key.slice(0, 3)}${'*'.repeat(8)}${key.slice(-4)}` : '***');

function parseChatRequest(text: string): { problem: string } | { body: ChatRequest } {
  let body: Partial<ChatRequest> | null;
  try {
    body = JSON.parse(text) as Partial<ChatRequest> | null;
  } catch {
    return { problem: 'We could not parse the JSON body of your request.' };
  }
  if (body === null || typeof body !== 'object')
    return { problem: 'We could not parse the JSON body of your request.' };
  if (typeof body.model !== 'string' || !body.model) return { problem: 'you must provide a model parameter' };
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return { problem: "Missing required parameter: 'messages'." };
  if (body.messages.some((m) => typeof m?.role !== 'string' || typeof m.content !== 'string')) {
    return { problem: "Invalid value for 'messages': each message needs a role and text content." };
  }
  return { body: body as ChatRequest };
}

/** The first whole sentence of each passage block of the user message (`[n] chunk_id: …` blocks). */
function passageSentences(user: string): Array<{ id: string; url: string; title: string; sentence: string }> {
  return user.split(/\n\n(?=\[\d+\] chunk_id:)/).flatMap((block) => {
    const id = /chunk_id:\s*(\S+)/.exec(block)?.[1];
    const text = block
      .split('\n')
      .filter((line) => !/^(\[\d+\] chunk_id|url|title|heading):/.test(line))
      .join(' ');
    const sentence = /[A-Z][^.!?]{20,300}[.!?](?=\s|$)/.exec(text)?.[0];
    const url = /^url:\s*(\S+)$/m.exec(block)?.[1] ?? '';
    return id && sentence ? [{ id, url, title: /^title:\s*(.*)$/m.exec(block)?.[1].trim() ?? id, sentence }] : [];
  });
}

/** A blog post (json_schema `blog_post`): one section per passage, each quoting that passage's first sentence. */
function blogContent(body: ChatRequest, user: string) {
  const schema = body.response_format?.json_schema?.schema as { properties?: { sections?: { minItems?: number } } };
  const count = schema.properties?.sections?.minItems ?? 1;
  const topic = /^Topic:\s*(.*)$/m.exec(user)?.[1] ?? 'Our work';
  const found = passageSentences(user);
  const sections = Array.from({ length: count }, (_, i) => {
    const p = found[i % Math.max(found.length, 1)];
    return {
      heading: `Part ${i + 1}: ${p?.title ?? 'Notes'}`.slice(0, 100),
      body: `In short: ${p?.sentence ?? 'nothing was found in the passages.'}`,
      source_chunk_ids: p ? [p.id] : [],
    };
  });
  return {
    title: `A model's guide to ${topic}`,
    meta_description: `What the passages say about ${topic}.`.slice(0, 160),
    introduction: `This post gathers what the passages say about ${topic}.`,
    sections,
  };
}

/** Ad creatives (json_schema `ad_creatives`): ad i quotes passage i's first sentence (cut at a word to 125 characters). */
function adContent(body: ChatRequest, user: string) {
  const schema = body.response_format?.json_schema?.schema as { properties?: { creatives?: { minItems?: number } } };
  const count = schema.properties?.creatives?.minItems ?? 1;
  const found = passageSentences(user);
  const cut = (text: string, max: number) => (text.length <= max ? text : text.slice(0, text.lastIndexOf(' ', max)));
  const creatives = Array.from({ length: count }, (_, i) => {
    const p = found[i % Math.max(found.length, 1)];
    return {
      headline: `Model ad ${i + 1}`,
      primary_text: cut(p?.sentence ?? 'Nothing found.', 125),
      description: '',
      link_url: p?.url ?? '',
      source_chunk_ids: p ? [p.id] : [],
    };
  });
  return { creatives };
}

/** A different ask in each step: the draft checks refuse a sentence used twice in a sequence. */
const ASKS = [
  'Would a quick call next week be useful?',
  'Could we find a few minutes to talk?',
  'Is a short call worth it?',
  'Shall I send a few times for a call?',
  'Would a call help your team?',
  'Is this worth a reply?',
];

function okContent(body: ChatRequest) {
  const user = body.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
  if (body.response_format?.json_schema?.name === 'blog_post') return blogContent(body, user);
  if (body.response_format?.json_schema?.name === 'ad_creatives') return adContent(body, user);
  const ids = [...user.matchAll(/chunk_id:\s*(\S+)/g)].map((m) => m[1]);
  const titles = [...user.matchAll(/^title:\s*(.*)$/gm)].map((m) => m[1].trim());
  const minItems = body.response_format?.json_schema?.schema.properties?.steps?.minItems;
  const count = typeof minItems === 'number' && Number.isInteger(minItems) && minItems > 0 ? minItems : 1;
  const allowed = /^Allowed variables:.*\bfirst_name\b/m.test(user);
  const greeting = allowed ? 'Hi {{first_name | "there"}},' : 'Hello,';
  const steps = Array.from({ length: count }, (_, i) => {
    const title = titles.length ? titles[i % titles.length] : '';
    const topic = title && title !== '(none)' ? title : 'what we do';
    return {
      subject: `${topic} (${i + 1} of ${count})`.slice(0, 150),
      body: `${greeting}\n\nNote ${i + 1} about ${topic}.\n\n${ASKS[i % ASKS.length]}`,
      wait_days: i === 0 ? 0 : 3,
      source_chunk_ids: ids.length ? [ids[i % ids.length]] : [],
    };
  });
  return { steps };
}

function completion(n: number, model: string, message: Record<string, unknown>, finishReason = 'stop') {
  return {
    id: `chatcmpl-fake-${n}`,
    object: 'chat.completion',
    created: CREATED,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', refusal: null, ...message },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage: { prompt_tokens: 100, completion_tokens: 100, total_tokens: 200 },
  };
}

async function readText(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

export async function startFakeLlm(options: { apiKey?: string } = {}): Promise<FakeLlm> {
  const apiKey = options.apiKey ?? 'sk-fake-llm-0123456789abcdef';
  const requests: FakeLlmRequest[] = [];
  let mode: FakeLlmMode | 'fixed' = 'ok';
  let fixed: unknown;

  const answer = (res: ServerResponse, body: ChatRequest) => {
    const n = requests.length;
    const content = (value: unknown) =>
      completion(n, body.model, { content: typeof value === 'string' ? value : JSON.stringify(value) });
    switch (mode) {
      case 'ok':
        return send(res, 200, content(okContent(body)));
      case 'fixed':
        return send(res, 200, content(fixed));
      case 'malformed':
        return send(res, 200, content('{not json'));
      case 'wrong_shape':
        return send(res, 200, content({ emails: [{ title: 'Hello', text: 'A note' }] }));
      case 'refusal':
        return send(
          res,
          200,
          completion(n, body.model, { content: null, refusal: "I'm sorry, but I can't help with that request." }),
        );
      case 'slow':
        return; // held: close() ends the connection
      case 'rate_limited':
        return openAiError(
          res,
          429,
          {
            message: `Rate limit reached for ${body.model} on requests per min (RPM): Limit 3, Used 3, Requested 1.`,
            type: 'requests',
            code: 'rate_limit_exceeded',
          },
          { 'retry-after': '20' },
        );
      case 'server_error':
        return openAiError(res, 500, {
          message: 'The server had an error while processing your request. Sorry about that!',
          type: 'server_error',
          code: null,
        });
    }
  };

  const server = createServer(async (req, res) => {
    const text = await readText(req);
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const recorded: FakeLlmRequest = { method: req.method ?? '', path, headers: req.headers, text, body: undefined };
    requests.push(recorded);
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      return openAiError(res, 404, {
        message: `Invalid URL (${req.method} ${path})`,
        type: 'invalid_request_error',
        code: null,
      });
    }
    const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (given !== apiKey) {
      const message = given
        ? `Incorrect API key provided: ${masked(given)}. You can find your API key at https://platform.openai.com/account/api-keys.`
        : "You didn't provide an API key.";
      return openAiError(res, 401, { message, type: 'invalid_request_error', code: given ? 'invalid_api_key' : null });
    }
    const parsed = parseChatRequest(text);
    if ('problem' in parsed)
      return openAiError(res, 400, { message: parsed.problem, type: 'invalid_request_error', code: null });
    recorded.body = parsed.body;
    answer(res, parsed.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey,
    setMode(next) {
      mode = next;
    },
    answerWith(content) {
      mode = 'fixed';
      fixed = content;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
